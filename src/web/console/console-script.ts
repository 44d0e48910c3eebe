import { PAGE_PATHS } from '../pages/page-paths.js';

/** Where the console's assets are served (`ConsoleAssetsController`). */
const ASSETS = `${PAGE_PATHS.console}/assets/`;

/**
 * The console's one script, served from Trove's own origin (`/console/assets/console.js`): what a
 * browser that can do more gets beyond the plain pages, which work without it. Where the browser
 * offers a camera, the check-out desk's "Scan a label" reads a label's QR code (a Trove or Homebox
 * label: a link to the item, or its asset id) into the search and sends it, with the browser's own
 * barcode detector where it has one that reads QR codes, else with the barcode-detector package
 * and its reader (`barcode-detector.js`, `zxing_reader.wasm`), loaded from Trove's origin when a
 * scan starts. A scanner acting as a keyboard needs no script: it types into the focused search
 * and ends with Enter.
 */
export const CONSOLE_SCRIPT = `'use strict';
(function () {
  const ASSETS = ${JSON.stringify(ASSETS)};
  const button = document.querySelector('[data-scan]');
  const view = document.querySelector('[data-scan-view]');
  const input = document.getElementById('find');
  if (!button || !view || !input) return;
  if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) return;
  const video = view.querySelector('video');
  const status = view.querySelector('[data-scan-status]');
  let stream = null;
  let timer = null;
  const loadScript = function (src) {
    return new Promise(function (resolve, reject) {
      const script = document.createElement('script');
      script.src = src;
      script.onload = resolve;
      script.onerror = function () { reject(new Error('could not load ' + src)); };
      document.head.append(script);
    });
  };
  const detectorClass = async function () {
    if ('BarcodeDetector' in window) {
      try {
        const formats = await window.BarcodeDetector.getSupportedFormats();
        if (formats.indexOf('qr_code') !== -1) return window.BarcodeDetector;
      } catch (error) { /* the browser's own detector cannot be asked: use the package */ }
    }
    if (!window.BarcodeDetectionAPI) await loadScript(ASSETS + 'barcode-detector.js');
    await window.BarcodeDetectionAPI.prepareZXingModule({
      overrides: {
        locateFile: function (file, prefix) {
          return file.endsWith('.wasm') ? ASSETS + file : prefix + file;
        },
      },
      fireImmediately: true,
    });
    return window.BarcodeDetectionAPI.BarcodeDetector;
  };
  const stop = function () {
    if (timer !== null) clearInterval(timer);
    timer = null;
    if (stream) stream.getTracks().forEach(function (track) { track.stop(); });
    stream = null;
  };
  button.hidden = false;
  button.addEventListener('click', async function () {
    if (stream) { stop(); view.hidden = true; button.textContent = 'Scan a label'; return; }
    try {
      view.hidden = false;
      status.textContent = 'Starting the camera…';
      const Detector = await detectorClass();
      const detector = new Detector({ formats: ['qr_code'] });
      stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' } });
      video.srcObject = stream;
      button.textContent = 'Stop scanning';
      status.textContent = 'Hold a label in front of the camera.';
      await video.play();
      let busy = false;
      timer = setInterval(async function () {
        if (busy || video.readyState < 2) return;
        busy = true;
        try {
          const codes = await detector.detect(video);
          if (codes.length > 0 && codes[0].rawValue) {
            stop();
            status.textContent = 'Read ' + codes[0].rawValue;
            input.value = codes[0].rawValue;
            input.form.submit();
          }
        } catch (error) {
          status.textContent = 'The camera could not be read: ' + error.message;
        } finally {
          busy = false;
        }
      }, 250);
    } catch (error) {
      stop();
      button.textContent = 'Scan a label';
      status.textContent = 'The camera is not available: ' + error.message;
    }
  });
})();
`;
