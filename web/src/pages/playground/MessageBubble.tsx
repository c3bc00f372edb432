import { memo } from 'react';
import { Avatar, Button, Flex, Spin, Tooltip, Typography, theme } from 'antd';
import { CopyOutlined, RedoOutlined, RobotOutlined, UserOutlined } from '@ant-design/icons';
import { t } from '../../lib/i18n';
import type { ChatMessage } from './messages';
import { ReplyMarkdown } from './ReplyMarkdown';

interface Props {
  message: ChatMessage;
  /** Copy and regenerate (a finished message); absent while it streams. */
  onCopy?: (text: string) => void;
  onRegenerate?: () => void;
}

/** One message of the conversation; its status shows as data-status (loading, incomplete, complete, error). */
export const MessageBubble = memo(function MessageBubble({ message, onCopy, onRegenerate }: Props) {
  const { token } = theme.useToken();
  const mine = message.role === 'user';
  const failed = message.status === 'error';
  const body = (() => {
    if (message.status === 'loading') return <Spin size="small" aria-label={t('正在生成')} />;
    if (mine) return <div style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{message.content}</div>;
    if (failed) return <div style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', color: token.colorError }}>{message.content}</div>;
    if (!message.content && !message.reasoning) return <Typography.Text type="secondary">{t('已停止生成')}</Typography.Text>;
    return (
      <>
        {message.reasoning && (
          <details className="playground-reasoning" open={message.status === 'incomplete' && !message.content}>
            <summary>{t('思考过程')}</summary>
            <div style={{ whiteSpace: 'pre-wrap', color: token.colorTextSecondary }}>{message.reasoning}</div>
          </details>
        )}
        <ReplyMarkdown source={message.content} highlight={message.status === 'complete'} />
      </>
    );
  })();

  return (
    <Flex
      role="article"
      aria-label={mine ? t('用户') : t('助手')}
      data-status={message.status}
      data-role={message.role}
      gap={10}
      style={{ flexDirection: mine ? 'row-reverse' : 'row', marginBottom: 16 }}
    >
      <Avatar icon={mine ? <UserOutlined /> : <RobotOutlined />} style={{ flex: 'none', background: mine ? token.colorPrimary : token.colorSuccess }} />
      <div style={{ maxWidth: 'calc(100% - 52px)', minWidth: 0 }}>
        <div
          className={message.status === 'incomplete' ? 'playground-bubble playground-streaming' : 'playground-bubble'}
          style={{
            padding: '8px 12px',
            borderRadius: token.borderRadiusLG,
            background: failed ? token.colorErrorBg : mine ? token.colorPrimaryBg : token.colorFillQuaternary,
            border: failed ? `1px solid ${token.colorErrorBorder}` : undefined,
          }}
        >
          {body}
        </div>
        {(onCopy || onRegenerate) && (
          <Flex gap={4} justify={mine ? 'flex-end' : 'flex-start'} style={{ marginTop: 2 }}>
            {onCopy && message.content && (
              <Tooltip title={t('复制')}>
                <Button type="text" size="small" icon={<CopyOutlined />} aria-label={t('复制')} onClick={() => onCopy(message.content)} />
              </Tooltip>
            )}
            {onRegenerate && (
              <Tooltip title={t('重新生成')}>
                <Button type="text" size="small" icon={<RedoOutlined />} aria-label={t('重新生成')} onClick={onRegenerate} />
              </Tooltip>
            )}
          </Flex>
        )}
      </div>
    </Flex>
  );
});
