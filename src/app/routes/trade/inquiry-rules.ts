import type { ValidationKey } from '../../../shared/validation';

/** A code as the price inquiry looks it up: trimmed and upper-case (stock, index and futures codes are). */
export function inquiryCode(text: string): string {
  return text.trim().toUpperCase();
}

/** The inquiry's code: required, and 1 to 12 letters or digits (the shape of every code the station quotes). */
export function checkInquiryCode(text: string): Extract<ValidationKey, 'required' | 'invalid'> | null {
  const code = inquiryCode(text);
  if (code === '') return 'required';
  return /^[A-Z0-9]{1,12}$/.test(code) ? null : 'invalid';
}
