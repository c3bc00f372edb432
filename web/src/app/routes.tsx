import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { Route, Routes } from 'react-router';
import { readyRoutes, type RouteEntry } from './access';
import { AppLayout } from './layout/AppLayout';
import { PageLoading } from './PageLoading';
import { RequireAccess } from './RequireAccess';

const NotFoundPage = lazy(() => import('../pages/not-found/NotFoundPage'));

// One lazy component per loader, created once (two paths may share a page).
const lazyCache = new Map<RouteEntry['load'], LazyExoticComponent<ComponentType>>();
function pageOf(entry: RouteEntry): LazyExoticComponent<ComponentType> {
  let page = lazyCache.get(entry.load);
  if (!page) {
    page = lazy(entry.load!);
    lazyCache.set(entry.load, page);
  }
  return page;
}

function element(entry: RouteEntry) {
  const Page = pageOf(entry);
  return (
    <RequireAccess access={entry.access}>
      <Suspense fallback={<PageLoading />}>
        <Page />
      </Suspense>
    </RequireAccess>
  );
}

const routes = readyRoutes();

export function AppRoutes() {
  return (
    <Routes>
      {routes
        .filter((r) => r.bare)
        .map((r) => (
          <Route key={r.path} path={r.path} element={element(r)} />
        ))}
      <Route element={<AppLayout />}>
        {routes
          .filter((r) => !r.bare)
          .map((r) => (
            <Route key={r.path} path={r.path} element={element(r)} />
          ))}
        <Route
          path="*"
          element={
            <Suspense fallback={<PageLoading />}>
              <NotFoundPage />
            </Suspense>
          }
        />
      </Route>
    </Routes>
  );
}
