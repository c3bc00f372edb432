import { Card } from 'antd';
import { t } from '../../../lib/i18n';
import type { OptionField } from '../form/optionFields';
import { SingleOptionForm } from '../form/SingleOptionForm';

const NOTICE: readonly [OptionField] = [
  {
    key: 'Notice',
    kind: 'textarea',
    rows: 6,
    label: '公告',
    placeholder: '在此输入新的公告内容，支持 Markdown & HTML 代码',
    extra: '登录后的用户会看到一次公告；内容修改后会再次显示',
  },
];
const SYSTEM_NAME: readonly [OptionField] = [{ key: 'SystemName', kind: 'text', label: '系统名称', placeholder: '在此输入系统名称', wide: true }];
const LOGO: readonly [OptionField] = [
  { key: 'Logo', kind: 'text', label: 'Logo 图片地址', placeholder: '在此输入 Logo 图片地址', wide: true },
];
const HOME_PAGE: readonly [OptionField] = [
  {
    key: 'HomePageContent',
    kind: 'textarea',
    rows: 6,
    label: '首页内容',
    placeholder:
      '在此输入首页内容，支持 Markdown & HTML 代码，设置后首页的状态信息将不再显示。如果输入的是一个链接，则会使用该链接作为 iframe 的 src 属性，这允许你设置任意网页作为首页。',
  },
];
const ABOUT: readonly [OptionField] = [
  {
    key: 'About',
    kind: 'textarea',
    rows: 6,
    label: '关于',
    placeholder:
      '在此输入新的关于内容，支持 Markdown & HTML 代码。如果输入的是一个链接，则会使用该链接作为 iframe 的 src 属性，这允许你设置任意网页作为关于页面。',
  },
];
const FOOTER: readonly [OptionField] = [
  { key: 'Footer', kind: 'textarea', rows: 3, label: '页脚', placeholder: '在此输入新的页脚，留空则使用默认页脚，支持 HTML 代码' },
];

/** The other tab (super admin): the notice and the site's name, logo, home page, about page and footer. */
export function OtherSetting() {
  return (
    <>
      <Card title={t('公告设置')} style={{ marginBottom: 16 }}>
        <SingleOptionForm field={NOTICE} saveLabel="保存公告" />
      </Card>
      <Card title={t('个性化设置')} style={{ marginBottom: 16 }}>
        <SingleOptionForm field={SYSTEM_NAME} saveLabel="设置系统名称" />
        <SingleOptionForm field={LOGO} saveLabel="设置 Logo" />
        <SingleOptionForm field={HOME_PAGE} saveLabel="保存首页内容" />
        <SingleOptionForm field={ABOUT} saveLabel="保存关于" />
        <SingleOptionForm field={FOOTER} saveLabel="设置页脚" />
      </Card>
    </>
  );
}
