import dayjs from 'dayjs';

/** Unix seconds as the console shows them. */
export function formatTime(seconds: number): string {
  return dayjs.unix(seconds).format('YYYY-MM-DD HH:mm:ss');
}
