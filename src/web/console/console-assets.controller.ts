import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Get, Header, StreamableFile } from '@nestjs/common';
import { Public } from '../../identity/auth/decorators/public.decorator.js';
import { Page } from '../pages/page.decorator.js';
import { CONSOLE_SCRIPT } from './console-script.js';

const require = createRequire(import.meta.url);
/** The barcode-detector package's script that defines `BarcodeDetectionAPI` without patching. */
const BARCODE_DETECTOR = path.join(
  path.dirname(path.dirname(require.resolve('barcode-detector/ponyfill'))),
  'iife',
  'ponyfill.js',
);
/** The QR and barcode reader it runs, from the zxing-wasm version it depends on. */
const ZXING_READER = createRequire(require.resolve('barcode-detector/ponyfill')).resolve(
  'zxing-wasm/reader/zxing_reader.wasm',
);
const A_DAY = 'public, max-age=86400';

/**
 * The console's scripts, from Trove's own origin (the pages' policy runs no other): its own, and
 * the barcode detector with its reader for browsers that offer a camera but no detector of their
 * own (Firefox, Chromium outside Android, ChromeOS and macOS), loaded only when a scan starts.
 */
@Page('console/assets')
export class ConsoleAssetsController {
  @Get('console.js')
  @Public()
  @Header('Content-Type', 'text/javascript; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=3600')
  script(): string {
    return CONSOLE_SCRIPT;
  }

  @Get('barcode-detector.js')
  @Public()
  @Header('Cache-Control', A_DAY)
  barcodeDetector(): StreamableFile {
    return new StreamableFile(createReadStream(BARCODE_DETECTOR), {
      type: 'text/javascript; charset=utf-8',
    });
  }

  @Get('zxing_reader.wasm')
  @Public()
  @Header('Cache-Control', A_DAY)
  barcodeReader(): StreamableFile {
    return new StreamableFile(createReadStream(ZXING_READER), { type: 'application/wasm' });
  }
}
