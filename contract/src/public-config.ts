/**
 * GET /api/config: public settings, the same for every visitor. The server also writes them into each page
 * (`<meta name="olympe-config">`, decision 96), which the web app reads before asking.
 */
export interface PublicConfig {
  contactEmail: string;
  tileUrl: string;
  /** An address search on /map (GEOCODER_URL set, decision 87); absent on older servers. */
  geocoder?: boolean;
  /** The size limit of a scan in Mo (MAX_SCAN_MB, decision 91); absent on older servers. */
  maxScanMb?: number;
}

/**
 * A cookie the web app sets while a session is kept in the browser and removes with it (decision 117). It is
 * never a proof of anything: it only tells the server not to put a visitor's pre-rendered screen in the page.
 */
export const SIGNED_IN_COOKIE = 'olympe_signed_in';
