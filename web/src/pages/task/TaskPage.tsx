import { asyncTaskApi } from '../../api/asyncTask';
import { AsyncTaskList } from '../async-task/AsyncTaskList';
import { taskWindow } from '../async-task/view';
import { taskColumns } from './columns';

/** /task: the async (music) tasks (spec §2); admins see everyone's, with the channel. */
export default function TaskPage() {
  return <AsyncTaskList name="task-search" defaultWindow={taskWindow} load={asyncTaskApi.tasks} columns={taskColumns} />;
}
