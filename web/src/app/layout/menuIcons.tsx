import type { ReactNode } from 'react';
import {
  AppstoreOutlined,
  CalendarOutlined,
  CommentOutlined,
  CreditCardOutlined,
  DollarOutlined,
  ExperimentOutlined,
  FileTextOutlined,
  GiftOutlined,
  KeyOutlined,
  LineChartOutlined,
  PictureOutlined,
  SettingOutlined,
  UserOutlined,
} from '@ant-design/icons';
import type { MenuIcon } from '../access';

export const MENU_ICONS: Record<MenuIcon, ReactNode> = {
  playground: <ExperimentOutlined />,
  pricing: <DollarOutlined />,
  channel: <AppstoreOutlined />,
  chat: <CommentOutlined />,
  token: <KeyOutlined />,
  redemption: <GiftOutlined />,
  wallet: <CreditCardOutlined />,
  user: <UserOutlined />,
  log: <FileTextOutlined />,
  dashboard: <LineChartOutlined />,
  drawing: <PictureOutlined />,
  task: <CalendarOutlined />,
  setting: <SettingOutlined />,
};
