/**
 * The KYC photo upload, beside the typed client (client.ts): the one request the app sends with a raw body
 * and upload progress. It is the only other place in the app that talks to the station directly.
 */
import { currentLocale, currentTranslations } from '../i18n/locale';
import { session$ } from '../state/session';
import { handleNotLoggedIn, readEnvelope, REQUEST_TIMEOUT_MS } from './client';
import { ApiError } from './errors';

function noAnswer(code: 'NETWORK' | 'TIMEOUT'): ApiError {
  return new ApiError(code, currentTranslations().errors[code](), 0);
}

/** What the KYC photo upload (`POST /user/kyc/upload.do`, the raw image as the body) answers. */
export interface UploadedImage {
  id: number;
  mime: 'image/jpeg' | 'image/png' | 'image/webp';
  size: number;
}

/**
 * Uploads one KYC photo as the raw body, reporting progress (0–1). XMLHttpRequest rather than fetch:
 * fetch has no upload progress in every browser the app supports, and the form shows a progress bar.
 */
export function uploadKycImage(
  image: Blob,
  options: { onProgress?: (fraction: number) => void; signal?: AbortSignal } = {},
): Promise<UploadedImage> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/user/kyc/upload.do');
    xhr.timeout = REQUEST_TIMEOUT_MS;
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Accept-Language', currentLocale());
    xhr.setRequestHeader('Content-Type', image.type || 'application/octet-stream');
    const token = session$.token.peek();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) options.onProgress?.(event.loaded / event.total);
    };
    const onAbort = () => xhr.abort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const finish = () => options.signal?.removeEventListener('abort', onAbort);
    xhr.onload = () => {
      finish();
      let parsed: unknown;
      try {
        parsed = JSON.parse(xhr.responseText) as unknown;
      } catch {
        parsed = undefined;
      }
      try {
        resolve(readEnvelope<UploadedImage>(xhr.status, parsed));
      } catch (error) {
        if (error instanceof ApiError && error.code === 'NOT_LOGGED_IN') handleNotLoggedIn();
        reject(error);
      }
    };
    xhr.onerror = () => {
      finish();
      reject(noAnswer('NETWORK'));
    };
    xhr.ontimeout = () => {
      finish();
      reject(noAnswer('TIMEOUT'));
    };
    xhr.onabort = () => {
      finish();
      reject(new DOMException('The upload was aborted', 'AbortError'));
    };
    if (options.signal?.aborted) {
      xhr.abort();
      return;
    }
    xhr.send(image);
  });
}
