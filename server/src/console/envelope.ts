/** The console's response shape. */
export interface Envelope<T> {
  success: boolean;
  message: string;
  data?: T;
}

export const ok = <T>(data?: T, message = ''): Envelope<T> => ({ success: true, message, data });
