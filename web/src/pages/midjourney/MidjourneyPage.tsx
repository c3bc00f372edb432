import { Alert } from 'antd';
import { isAdmin } from '@switchyard/shared';
import { asyncTaskApi } from '../../api/asyncTask';
import { useAuth } from '../../app/auth';
import { useStatus } from '../../app/status';
import { t } from '../../lib/i18n';
import { AsyncTaskList } from '../async-task/AsyncTaskList';
import { drawingWindow } from '../async-task/view';
import { drawingColumns } from './columns';

/** /midjourney: the drawing tasks (spec §2); admins see everyone's, with the channel. */
export default function MidjourneyPage() {
  const { user } = useAuth();
  const { status } = useStatus();
  // Without the proxy's callbacks some results only arrive by polling; the established console warns admins.
  const notifyOff = isAdmin(user?.role) && status.mj_notify_enabled !== true;
  return (
    <AsyncTaskList name="drawing-search" defaultWindow={drawingWindow} load={asyncTaskApi.drawings} columns={drawingColumns}>
      {notifyOff && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          title={t('当前未开启Midjourney回调，部分项目可能无法获得绘图结果，可在运营设置中开启。')}
        />
      )}
    </AsyncTaskList>
  );
}
