/** Offers `text` as a file download named `filename` (a plain-text file, UTF-8). */
export function downloadTextFile(text: string, filename: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // The browser has taken the file once the click is handled; keep the URL a moment for slow handlers.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** One code per line, ending with a newline, as operators paste them into spreadsheets and shops. */
export const codesText = (keys: readonly string[]): string => keys.map((k) => `${k}\n`).join('');
