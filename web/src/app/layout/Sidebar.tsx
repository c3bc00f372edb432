import { Layout, Menu, theme } from 'antd';
import { Link, useLocation } from 'react-router';
import { selectedMenuKey, type MenuEntry } from '../access';
import { MENU_ICONS } from './menuIcons';
import { t } from '../../lib/i18n';

interface Props {
  entries: MenuEntry[];
  collapsed: boolean;
  isMobile: boolean;
}

/** The left navigation, driven by the access table (role and feature options). */
export function Sidebar({ entries, collapsed, isMobile }: Props) {
  const location = useLocation();
  const { token } = theme.useToken();
  const selected = selectedMenuKey(location.pathname, entries);
  return (
    <Layout.Sider
      aria-label={t('侧边栏')}
      collapsed={collapsed}
      collapsedWidth={isMobile ? 0 : 64}
      width={200}
      trigger={null}
      theme="light"
      style={{ borderInlineEnd: `1px solid ${token.colorSplit}`, overflow: 'auto' }}
    >
      <Menu
        mode="inline"
        inlineCollapsed={collapsed}
        selectedKeys={selected ? [selected] : []}
        defaultOpenKeys={entries.filter((m) => m.children?.some((c) => c.path === selected)).map((m) => m.path)}
        style={{ borderInlineEnd: 0, paddingTop: 8 }}
        items={entries.map((m) =>
          m.children
            ? {
                key: m.path,
                icon: MENU_ICONS[m.icon],
                label: t(m.label),
                // Administrator-given names, shown as written.
                children: m.children.map((c) => ({ key: c.path, label: <Link to={c.path}>{c.label}</Link> })),
              }
            : { key: m.path, icon: MENU_ICONS[m.icon], label: <Link to={m.path}>{t(m.label)}</Link> },
        )}
      />
    </Layout.Sider>
  );
}
