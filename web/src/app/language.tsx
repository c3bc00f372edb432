import { Fragment, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import antdEnUS from 'antd/locale/en_US';
import antdZhCN from 'antd/locale/zh_CN';
import { currentLanguage, i18n, setLanguage, type Language } from '../lib/i18n';

const DAYJS_LOCALE: Record<Language, string> = { zh: 'zh-cn', en: 'en' };
const HTML_LANG: Record<Language, string> = { zh: 'zh-CN', en: 'en' };
export const ANTD_LOCALE = { zh: antdZhCN, en: antdEnUS } as const;

/** Dates and the page's lang attribute follow the console language. */
export function applyLanguageToDocument(language: Language = currentLanguage()): void {
  dayjs.locale(DAYJS_LOCALE[language]);
  document.documentElement.lang = HTML_LANG[language];
}
i18n.on('languageChanged', () => applyLanguageToDocument());

/** The current console language and the switch; re-renders its caller when the language changes. */
export function useLanguage(): { language: Language; setLanguage: (language: Language) => void } {
  useTranslation();
  return { language: currentLanguage(), setLanguage };
}

/**
 * Mounts its children afresh when the language changes. Pages call the plain `t` (also in memos and column
 * builders), so a re-render alone would leave texts computed earlier in the old language; remounting recomputes
 * them all. Server data survives in the query cache, and a switch is rare enough for open forms to reset.
 */
export function LanguageBoundary({ children }: { children: ReactNode }) {
  const { language } = useLanguage();
  return <Fragment key={language}>{children}</Fragment>;
}
