import { useMemo, type CSSProperties } from 'react';
import DOMPurify from 'dompurify';

interface Props {
  html: string;
  className?: string;
  style?: CSSProperties;
}

/** Administrator-provided HTML (footer, notice, about), rendered after DOMPurify strips scripts and handlers. */
export function SanitizedHtml({ html, className, style }: Props) {
  const clean = useMemo(() => DOMPurify.sanitize(html, { ADD_ATTR: ['target'] }), [html]);
  return <div className={className} style={style} dangerouslySetInnerHTML={{ __html: clean }} />;
}
