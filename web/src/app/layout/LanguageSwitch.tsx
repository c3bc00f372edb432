import { Button, Dropdown } from 'antd';
import { TranslationOutlined } from '@ant-design/icons';
import { LANGUAGES, t, type Language } from '../../lib/i18n';
import { useLanguage } from '../language';

/** Each language named in itself, so a reader finds theirs whatever the console currently speaks. */
const LANGUAGE_NAMES: Record<Language, string> = { zh: '简体中文', en: 'English' };

export function LanguageSwitch() {
  const { language, setLanguage } = useLanguage();
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [language],
        items: LANGUAGES.map((key) => ({ key, label: <span lang={key === 'zh' ? 'zh-CN' : 'en'}>{LANGUAGE_NAMES[key]}</span> })),
        onClick: ({ key }) => setLanguage(key as Language),
      }}
    >
      {/* A native title, not an antd Tooltip: the tooltip would cover the menu it opens. */}
      <Button type="text" aria-label={t('切换语言')} title={t('切换语言')} icon={<TranslationOutlined />} />
    </Dropdown>
  );
}
