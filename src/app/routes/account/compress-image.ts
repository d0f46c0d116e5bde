/**
 * KYC photos are made small on the phone before they travel: decoded with createImageBitmap,
 * drawn onto a canvas no longer than MAX_SIDE on its long side, and encoded as JPEG. A phone camera's
 * 12 MB picture becomes a few hundred kilobytes, which matters on a flaky mobile network.
 */
import type { ValidationKey } from '../../../shared/validation';

export const MAX_SIDE = 1600;
export const JPEG_QUALITY = 0.82;
/** spec §5 and DOMAIN.md: at most 10 MB reaches the station. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** A picked file larger than this is refused before decoding (spec §5's second reading: 20 MB). */
export const MAX_PICKED_BYTES = 20 * 1024 * 1024;

/** The side lengths that fit `width` × `height` within `maxSide`, keeping the shape. */
export function fitWithin(width: number, height: number, maxSide: number): { width: number; height: number } {
  const scale = Math.min(1, maxSide / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** Null when a picked file may be compressed; otherwise the validation key of its message. */
export function checkPickedImage(file: { type: string; size: number }): ValidationKey | null {
  if (!file.type.startsWith('image/')) return 'imageType';
  if (file.size > MAX_PICKED_BYTES) return 'imageTooLarge';
  return null;
}

export class ImageDecodeError extends Error {}

async function decode(file: Blob): Promise<ImageBitmap> {
  try {
    return await createImageBitmap(file);
  } catch {
    throw new ImageDecodeError('not a decodable image');
  }
}

/** The picked photo as a JPEG no larger than MAX_SIDE on its long side. */
export async function compressImage(file: Blob): Promise<Blob> {
  const bitmap = await decode(file);
  const size = fitWithin(bitmap.width, bitmap.height, MAX_SIDE);
  const canvas = document.createElement('canvas');
  canvas.width = size.width;
  canvas.height = size.height;
  const context = canvas.getContext('2d');
  if (!context) throw new ImageDecodeError('no 2d canvas');
  // JPEG has no transparency: a white ground keeps a transparent PNG readable.
  context.fillStyle = '#fff';
  context.fillRect(0, 0, size.width, size.height);
  context.drawImage(bitmap, 0, 0, size.width, size.height);
  bitmap.close();
  return new Promise((resolve, reject) => {
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new ImageDecodeError('encoding failed'))),
      'image/jpeg',
      JPEG_QUALITY,
    );
  });
}
