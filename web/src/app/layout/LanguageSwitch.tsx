import { Button, Dropdown, Tooltip } from 'antd';
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
      <Tooltip title={t('切换语言')}>
        <Button type="text" aria-label={t('切换语言')} icon={<TranslationOutlined />} />
      </Tooltip>
    </Dropdown>
  );
}
