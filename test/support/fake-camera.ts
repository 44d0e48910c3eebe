import { writeFile } from 'node:fs/promises';
import sharp from 'sharp';

const WIDTH = 640;
const HEIGHT = 480;

/**
 * Writes `image` (any format sharp reads), centred on white at 640×480, as a Y4M video that
 * Chromium's fake camera plays in a loop (`--use-file-for-fake-video-capture`): the frame is
 * converted to the YUV 4:2:0 planes the format holds (BT.601, full range).
 */
export async function writeFakeCameraVideo(image: Buffer, file: string): Promise<void> {
  const { data } = await sharp(image)
    .flatten({ background: '#ffffff' })
    .resize(WIDTH - 80, HEIGHT - 80, { fit: 'contain', background: '#ffffff' })
    .extend({ top: 40, bottom: 40, left: 40, right: 40, background: '#ffffff' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const y = Buffer.alloc(WIDTH * HEIGHT);
  const u = Buffer.alloc((WIDTH / 2) * (HEIGHT / 2));
  const v = Buffer.alloc((WIDTH / 2) * (HEIGHT / 2));
  const rgb = (x: number, row: number): [number, number, number] => {
    const at = (row * WIDTH + x) * 3;
    return [data[at], data[at + 1], data[at + 2]];
  };
  for (let row = 0; row < HEIGHT; row += 1) {
    for (let x = 0; x < WIDTH; x += 1) {
      const [r, g, b] = rgb(x, row);
      y[row * WIDTH + x] = Math.round(0.299 * r + 0.587 * g + 0.114 * b);
    }
  }
  for (let row = 0; row < HEIGHT; row += 2) {
    for (let x = 0; x < WIDTH; x += 2) {
      let [r, g, b] = [0, 0, 0];
      for (const [dx, dy] of [
        [0, 0],
        [1, 0],
        [0, 1],
        [1, 1],
      ]) {
        const [pr, pg, pb] = rgb(x + dx, row + dy);
        r += pr / 4;
        g += pg / 4;
        b += pb / 4;
      }
      const at = (row / 2) * (WIDTH / 2) + x / 2;
      u[at] = clamp(128 - 0.168736 * r - 0.331264 * g + 0.5 * b);
      v[at] = clamp(128 + 0.5 * r - 0.418688 * g - 0.081312 * b);
    }
  }
  const frame = Buffer.concat([Buffer.from('FRAME\n'), y, u, v]);
  const header = Buffer.from(`YUV4MPEG2 W${WIDTH} H${HEIGHT} F15:1 Ip A1:1 C420jpeg\n`);
  await writeFile(file, Buffer.concat([header, frame, frame, frame]));
}

const clamp = (value: number): number => Math.max(0, Math.min(255, Math.round(value)));
