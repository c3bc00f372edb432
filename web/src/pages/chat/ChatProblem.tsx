import { Result } from 'antd';

/** Why a chat cannot open (configuration missing or wrong). */
export function ChatProblem({ message }: { message: string }) {
  return <Result status="warning" title={message} />;
}
