/**
 * Who sees which route and sidebar item: the one table of the console (spec §2, §6).
 * A feature that is not built yet stays in the table with `ready: false`: it is neither routed nor shown,
 * so its path falls to the not-found page. Building it later is flipping `ready` and adding `load`.
 */
import type { ComponentType } from 'react';
import { isAdmin, isRoot, type LoginUser, type StatusData } from '@switchyard/shared';

/** public: anyone; user: signed in; admin: role >= 10; root: role >= 100. */
export type Access = 'public' | 'user' | 'admin' | 'root';

export type PageModule = { default: ComponentType };

export interface RouteEntry {
  path: string;
  access: Access;
  ready: boolean;
  /** Lazy page module (a default export). Required when ready. */
  load?: () => Promise<PageModule>;
  /** Rendered without the top bar, sidebar and footer. */
  bare?: boolean;
}

// The channel list and its add/edit deep links are one page (the drawer follows the path), so they share a loader.
const loadChannelPage = () => import('../pages/channel/ChannelPage');

export const ROUTES: readonly RouteEntry[] = [
  { path: '/', access: 'public', ready: true, bare: true, load: () => import('../pages/home/HomePage') },
  { path: '/login', access: 'public', ready: true, load: () => import('../pages/login/LoginPage') },
  { path: '/register', access: 'public', ready: true, load: () => import('../pages/register/RegisterPage') },
  { path: '/reset', access: 'public', ready: true, load: () => import('../pages/reset/ResetPage') },
  { path: '/user/reset', access: 'public', ready: true, load: () => import('../pages/reset/ResetConfirmPage') },
  { path: '/oauth/github', access: 'public', ready: true, load: () => import('../pages/oauth/GitHubCallbackPage') },
  { path: '/about', access: 'public', ready: true, load: () => import('../pages/about/AboutPage') },
  { path: '/pricing', access: 'public', ready: true, load: () => import('../pages/pricing/PricingPage') },
  { path: '/chat/:id?', access: 'public', ready: true, load: () => import('../pages/chat/ChatPage') },
  { path: '/chat2link', access: 'user', ready: true, load: () => import('../pages/chat/Chat2LinkPage') },
  { path: '/playground', access: 'user', ready: true, load: () => import('../pages/playground/PlaygroundPage') },
  { path: '/token', access: 'user', ready: true, load: () => import('../pages/token/TokenPage') },
  { path: '/redemption', access: 'admin', ready: true, load: () => import('../pages/redemption/RedemptionPage') },
  { path: '/user', access: 'admin', ready: true, load: () => import('../pages/user/UserPage') },
  { path: '/user/edit/:id', access: 'admin', ready: true, load: () => import('../pages/user/EditUserPage') },
  { path: '/user/edit', access: 'user', ready: true, load: () => import('../pages/user/EditUserPage') },
  { path: '/channel', access: 'admin', ready: true, load: loadChannelPage },
  { path: '/channel/add', access: 'admin', ready: true, load: loadChannelPage },
  { path: '/channel/edit/:id', access: 'admin', ready: true, load: loadChannelPage },
  { path: '/topup', access: 'user', ready: true, load: () => import('../pages/topup/TopUpPage') },
  { path: '/log', access: 'user', ready: true, load: () => import('../pages/log/LogPage') },
  { path: '/detail', access: 'user', ready: true, load: () => import('../pages/detail/DetailPage') },
  { path: '/midjourney', access: 'user', ready: true, load: () => import('../pages/midjourney/MidjourneyPage') },
  { path: '/task', access: 'user', ready: true, load: () => import('../pages/task/TaskPage') },
  { path: '/setting', access: 'user', ready: true, load: () => import('../pages/setting/SettingPage') },
];

/** Options of the status record that switch a sidebar item on. */
export type FeatureFlag = 'enable_data_export' | 'enable_drawing' | 'enable_task';

export type MenuIcon =
  | 'playground'
  | 'pricing'
  | 'channel'
  | 'chat'
  | 'token'
  | 'redemption'
  | 'wallet'
  | 'user'
  | 'log'
  | 'dashboard'
  | 'drawing'
  | 'task'
  | 'setting';

export interface MenuEntry {
  /** Target path; also the menu key. */
  path: string;
  label: string;
  icon: MenuIcon;
  access: Access;
  ready: boolean;
  flag?: FeatureFlag;
  /** Sub-items (the configured chat targets), known only at run time. */
  children?: Array<{ path: string; label: string }>;
}

/** The sidebar in the spec's order. Labels are translation keys. */
export const MENU: readonly MenuEntry[] = [
  { path: '/playground', label: '操练场', icon: 'playground', access: 'user', ready: true },
  { path: '/pricing', label: '模型价格', icon: 'pricing', access: 'public', ready: true },
  { path: '/channel', label: '渠道', icon: 'channel', access: 'admin', ready: true },
  // Signed-out visitors have no token to chat with; the page itself stays public as the spec lists it.
  { path: '/chat', label: '聊天', icon: 'chat', access: 'user', ready: true },
  { path: '/token', label: '令牌', icon: 'token', access: 'user', ready: true },
  { path: '/redemption', label: '兑换码', icon: 'redemption', access: 'admin', ready: true },
  { path: '/topup', label: '钱包', icon: 'wallet', access: 'user', ready: true },
  { path: '/user', label: '用户管理', icon: 'user', access: 'admin', ready: true },
  { path: '/log', label: '日志', icon: 'log', access: 'user', ready: true },
  { path: '/detail', label: '数据看板', icon: 'dashboard', access: 'user', ready: true, flag: 'enable_data_export' },
  { path: '/midjourney', label: '绘图', icon: 'drawing', access: 'user', ready: true, flag: 'enable_drawing' },
  { path: '/task', label: '异步任务', icon: 'task', access: 'user', ready: true, flag: 'enable_task' },
  { path: '/setting', label: '设置', icon: 'setting', access: 'user', ready: true },
];

export function canAccess(access: Access, user: Pick<LoginUser, 'role'> | null): boolean {
  switch (access) {
    case 'public':
      return true;
    case 'user':
      return user !== null;
    case 'admin':
      return user !== null && isAdmin(user.role);
    case 'root':
      return user !== null && isRoot(user.role);
  }
}

/** Routes that exist in the router now. */
export const readyRoutes = (): RouteEntry[] => ROUTES.filter((r) => r.ready && r.load);

/** Sidebar items this visitor sees. Private items are hidden when signed out. */
export function visibleMenu(
  user: Pick<LoginUser, 'role'> | null,
  status: Partial<Pick<StatusData, FeatureFlag>>,
  entries: readonly MenuEntry[] = MENU,
): MenuEntry[] {
  return entries.filter(
    (m) => m.ready && canAccess(m.access, user) && (m.flag === undefined || status[m.flag] === true),
  );
}

/** The sidebar key to highlight for a location (longest matching item or sub-item path). */
export function selectedMenuKey(pathname: string, entries: readonly MenuEntry[] = MENU): string | undefined {
  let best: string | undefined;
  for (const { path } of entries.flatMap((e) => [e, ...(e.children ?? [])])) {
    const hit = pathname === path || pathname.startsWith(`${path}/`);
    if (hit && (best === undefined || path.length > best.length)) best = path;
  }
  return best;
}
