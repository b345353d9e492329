import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Stack } from '@mantine/core';
import { parseConvocationQr } from '@olympe/contract';

/** How often a camera frame is read: enough for a pupil holding up a phone, light on a school laptop. */
const SCAN_EVERY_MS = 300;

/**
 * ZXing-C++ in WebAssembly (zxing-wasm, as the server reads scanned sheets), loaded only when staff
 * start the camera. The .wasm is served by us (Vite asset): the package would fetch it from a CDN.
 */
async function loadReader() {
  const [{ prepareZXingModule, readBarcodes }, { default: wasmUrl }] = await Promise.all([
    import('zxing-wasm/reader'),
    import('zxing-wasm/reader/zxing_reader.wasm?url'),
  ]);
  await prepareZXingModule({
    overrides: { locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? wasmUrl : prefix + path) },
    fireImmediately: true,
  });
  return (image: ImageData) => readBarcodes(image, { formats: ['QRCode'], maxNumberOfSymbols: 1 });
}

/**
 * Decision 59: checks pupils in by scanning their convocation's QR code with the device's camera.
 * Each pupil read is handed to `onScan` once per start.
 */
export function QrScanner({ chapterId, onScan }: { chapterId: string; onScan: (userId: string) => void }) {
  const [on, setOn] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const video = useRef<HTMLVideoElement>(null);
  const seen = useRef(new Set<string>());
  const scanRef = useRef(onScan);
  scanRef.current = onScan;

  useEffect(() => {
    if (!on) return;
    let stream: MediaStream | null = null;
    let timer: ReturnType<typeof setInterval> | null = null;
    let stopped = false;
    (async () => {
      try {
        if (!navigator.mediaDevices?.getUserMedia) throw new Error('no camera');
        const [read, media] = await Promise.all([
          loadReader(),
          navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' } }),
        ]);
        stream = media;
        if (stopped || !video.current) return;
        video.current.srcObject = media;
        await video.current.play();
        const canvas = document.createElement('canvas');
        const context = canvas.getContext('2d', { willReadFrequently: true });
        timer = setInterval(async () => {
          const v = video.current;
          if (!v || !context || v.videoWidth === 0) return;
          canvas.width = v.videoWidth;
          canvas.height = v.videoHeight;
          context.drawImage(v, 0, 0);
          const results = await read(context.getImageData(0, 0, canvas.width, canvas.height));
          for (const r of results) {
            const userId = parseConvocationQr(r.text, chapterId);
            if (userId && !seen.current.has(userId)) {
              seen.current.add(userId);
              scanRef.current(userId);
            }
          }
        }, SCAN_EVERY_MS);
      } catch {
        setError('La caméra n’est pas disponible : autorisez-la dans le navigateur, ou cochez les présences à la main.');
        setOn(false);
      }
    })();
    return () => {
      stopped = true;
      if (timer) clearInterval(timer);
      stream?.getTracks().forEach((t) => t.stop());
    };
  }, [on, chapterId]);

  return (
    <Stack gap="xs">
      <Button
        variant="light"
        w="fit-content"
        onClick={() => {
          setError(null);
          setOn((v) => !v);
        }}
        aria-pressed={on}
      >
        {on ? 'Arrêter la caméra' : 'Scanner les convocations'}
      </Button>
      {on && <video ref={video} muted playsInline aria-label="Image de la caméra" style={{ width: 320, maxWidth: '100%' }} />}
      {error && <Alert color="yellow">{error}</Alert>}
    </Stack>
  );
}
