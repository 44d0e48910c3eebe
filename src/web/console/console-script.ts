/**
 * The console's one script, served from Trove's own origin (`/console/assets/console.js`): what a
 * browser that can do more gets beyond the plain pages, which work without it. Where the browser
 * offers a barcode detector and a camera, the check-out desk's "Scan a label" reads a label's QR
 * code (a Trove or Homebox label: a link to the item, or its asset id) into the search and sends
 * it. A scanner acting as a keyboard needs no script: it types into the focused search and ends
 * with Enter.
 */
export const CONSOLE_SCRIPT = `'use strict';
(function () {
  const button = document.querySelector('[data-scan]');
  const view = document.querySelector('[data-scan-view]');
  const input = document.getElementById('find');
  if (!button || !view || !input || !('BarcodeDetector' in window)) return;
  if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) return;
  const video = view.querySelector('video');
  const status = view.querySelector('[data-scan-status]');
  let stream = null;
  let timer = null;
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
      const detector = new window.BarcodeDetector({ formats: ['qr_code'] });
      stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' } });
      video.srcObject = stream;
      view.hidden = false;
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
      status.textContent = 'The camera is not available: ' + error.message;
      view.hidden = false;
    }
  });
})();
`;
