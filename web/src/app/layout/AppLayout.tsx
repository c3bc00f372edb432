import { Layout } from 'antd';
import { Outlet } from 'react-router';
import { Sidebar } from './Sidebar';
import { TopBar } from './TopBar';
import { Footer } from './Footer';
import { useIsMobile } from './useIsMobile';
import { useSidebarCollapse } from './useSidebarCollapse';
import { useMenuEntries } from './useMenuEntries';
import { NoticeModal } from './NoticeModal';

/** Top bar, sidebar and footer around every page except the portal root. */
export function AppLayout() {
  const isMobile = useIsMobile();
  const { collapsed, toggle } = useSidebarCollapse(isMobile);
  // A signed-out visitor has no sidebar destinations yet; an empty rail and its toggle would only take space.
  const entries = useMenuEntries();
  const hasSidebar = entries.length > 0;
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <NoticeModal />
      <TopBar collapsed={collapsed} onToggleSidebar={hasSidebar ? toggle : undefined} isMobile={isMobile} />
      <Layout hasSider>
        {hasSidebar && <Sidebar entries={entries} collapsed={collapsed} isMobile={isMobile} />}
        <Layout>
          <Layout.Content style={{ padding: isMobile ? 12 : 24 }}>
            <Outlet />
          </Layout.Content>
          <Footer />
        </Layout>
      </Layout>
    </Layout>
  );
}
