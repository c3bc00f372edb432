import type { CSSProperties } from 'react';
import { Button, Flex, Layout, Space, Tooltip, Typography, theme } from 'antd';
import { InfoCircleOutlined, MenuFoldOutlined, MenuUnfoldOutlined, MoonOutlined, SunOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { useAuth } from '../auth';
import { siteLogo, useStatus } from '../status';
import { useThemeMode } from '../ThemeContext';
import { LanguageSwitch } from './LanguageSwitch';
import { NewYearButton } from './NewYearButton';
import { UserMenu } from './UserMenu';
import { t } from '../../lib/i18n';

// Top-bar destinations are links, not buttons, so they never clash with a page's own 登录/注册 button.
const barLink: CSSProperties = { display: 'inline-flex', alignItems: 'center', padding: '4px 10px', fontSize: 14 };

interface Props {
  collapsed: boolean;
  /** Absent when there is no sidebar to toggle. */
  onToggleSidebar?: () => void;
  isMobile: boolean;
}

export function TopBar({ collapsed, onToggleSidebar, isMobile }: Props) {
  const { user } = useAuth();
  const { status } = useStatus();
  const { mode, toggle } = useThemeMode();
  const { token } = theme.useToken();
  const systemName = status.system_name || 'Switchyard';
  return (
    <Layout.Header
      style={{
        display: 'flex',
        alignItems: 'center',
        gap: 8,
        paddingInline: isMobile ? 8 : 16,
        background: token.colorBgContainer,
        borderBottom: `1px solid ${token.colorSplit}`,
        position: 'sticky',
        top: 0,
        zIndex: 10,
      }}
    >
      {onToggleSidebar && (
        <Button
          type="text"
          aria-label={collapsed ? t('展开菜单') : t('收起菜单')}
          aria-expanded={!collapsed}
          icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
          onClick={onToggleSidebar}
        />
      )}
      <Link to="/" style={{ display: 'flex', alignItems: 'center', gap: 8, minWidth: 0 }}>
        <img src={siteLogo(status)} alt={t('标志')} width={28} height={28} style={{ borderRadius: 6 }} />
        <Typography.Text strong ellipsis style={{ fontSize: 16 }}>
          {systemName}
        </Typography.Text>
      </Link>
      <Flex flex={1} />
      <Space size={isMobile ? 0 : 4}>
        <NewYearButton />
        <Tooltip title={t('关于')}>
          <Link to="/about" aria-label={t('关于')} style={barLink}>
            <InfoCircleOutlined />
          </Link>
        </Tooltip>
        <LanguageSwitch />
        {!isMobile && (
          <Tooltip title={mode === 'dark' ? t('切换到亮色模式') : t('切换到暗色模式')}>
            <Button
              type="text"
              aria-label={t('切换主题')}
              aria-pressed={mode === 'dark'}
              icon={mode === 'dark' ? <SunOutlined /> : <MoonOutlined />}
              onClick={toggle}
            />
          </Tooltip>
        )}
        {user ? (
          <UserMenu />
        ) : (
          <>
            <Link to="/login" style={barLink}>
              {t('登录')}
            </Link>
            <Link to="/register" style={barLink}>
              {t('注册')}
            </Link>
          </>
        )}
      </Space>
    </Layout.Header>
  );
}
