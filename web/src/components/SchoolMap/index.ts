import { lazy } from 'react';

export type { SchoolMapProps } from './school-map';
/** Leaflet and its CSS load with the first map shown, never with the main bundle. */
export const SchoolMap = lazy(() => import('./school-map'));
