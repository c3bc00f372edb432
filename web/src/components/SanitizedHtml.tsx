import { useMemo, type CSSProperties } from 'react';
import DOMPurify from 'dompurify';
import { imageUrl, linkUrl } from '../lib/safeUrl';

interface Props {
  html: string;
  className?: string;
  style?: CSSProperties;
}

// Links and images in administrator HTML follow the console's one address rule (lib/safeUrl.ts), on top of
// DOMPurify's own; a link that opens a new tab gets no handle back to the console.
DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  for (const name of ['href', 'xlink:href']) {
    const value = node.getAttribute(name);
    if (value !== null && !linkUrl(value)) node.removeAttribute(name);
  }
  const src = node.getAttribute('src');
  if (src !== null && !imageUrl(src, '')) node.removeAttribute('src');
  if (node.getAttribute('target') === '_blank') node.setAttribute('rel', 'noopener noreferrer');
});

/** Administrator-provided HTML (footer, notice, about), rendered after DOMPurify strips scripts and handlers. */
export function SanitizedHtml({ html, className, style }: Props) {
  const clean = useMemo(() => DOMPurify.sanitize(html, { ADD_ATTR: ['target'] }), [html]);
  return <div className={className} style={style} dangerouslySetInnerHTML={{ __html: clean }} />;
}
