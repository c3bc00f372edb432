/** The invite code from a ?aff= link, kept until registration (spec §2: query aff saves an invite code). */
const AFF_KEY = 'aff';

export function rememberAffCode(code: string | null): void {
  if (code) localStorage.setItem(AFF_KEY, code);
}

export function storedAffCode(): string {
  return localStorage.getItem(AFF_KEY) ?? '';
}
