// The validation-message catalogue of docs/product.md §5, word for word. Every form and
// every API 400 answer takes its text from here.

/** A value quoted in a message is cut short: an answer never carries a long input back. */
export const QUOTE_MAX = 80;
const quote = (value: string) => (value.length > QUOTE_MAX ? `${value.slice(0, QUOTE_MAX)}…` : value);

export const messages = {
  required: (field: string) => `${field} cannot be blank`,
  email: (value: string) => `${quote(value)} is not a valid email address`,
  minLength: (field: string, n: number) => `${field} must be at least ${n} characters long`,
  integer: (field: string) => `${field} must be an integer`,
  minValue: (field: string, min: number) => `${field} must be greater than or equal to ${min}`,
  alpha: (field: string) => `${field} can only contain alphabets`,
  alphaSpaces: (field: string) => `${field} can only contain alphabets and spaces`,
  regex: (value: string) => `${quote(value)} is not valid`,
  phoneNumber: (value: string) => `${quote(value)} is not a valid phone number`,
  url: (value: string) => `${quote(value)} is not a valid url`,
  confirmPassword: () => "The password confirmation does not match",
  imageFile: () => "Uploaded file is not a valid image",
  dimensions: (w: number, h: number) => `Invalid file dimensions. Expected: ${w}px X ${h}px`,
  fileExtension: (list: readonly string[]) => `Invalid file extension. Expected: ${list.join(", ")}`,
  fileSize: (kb: number) => `File size must not exceed ${kb} KB`,
} as const;
