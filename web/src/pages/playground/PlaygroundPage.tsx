import { useCallback, useEffect, useState, type KeyboardEvent } from 'react';
import { Alert, Button, Card, Col, Flex, Input, Popconfirm, Row } from 'antd';
import { ClearOutlined, PauseCircleOutlined, SendOutlined } from '@ant-design/icons';
import { useSearchParams } from 'react-router';
import { t } from '../../lib/i18n';
import { Conversation } from './Conversation';
import { SettingsPanel } from './SettingsPanel';
import { loadSettings, saveSettings, type PlaygroundSettings } from './settings';
import { useChat } from './useChat';
import './playground.css';

/** The playground (spec §2): settings on the left, a streaming chat with the chosen model on the right. */
export default function PlaygroundPage() {
  const [params] = useSearchParams();
  const [settings, setSettings] = useState<PlaygroundSettings>(loadSettings);
  const onChange = useCallback((patch: Partial<PlaygroundSettings>) => setSettings((s) => ({ ...s, ...patch })), []);
  useEffect(() => saveSettings(settings), [settings]);
  const chat = useChat(settings);

  return (
    <Flex vertical gap={16}>
      {params.get('expired') === 'true' && <Alert type="warning" showIcon title={t('未登录或登录已过期，请重新登录！')} />}
      <Row gutter={[16, 16]}>
        <Col xs={24} md={8} xl={6}>
          <SettingsPanel settings={settings} onChange={onChange} />
        </Col>
        <Col xs={24} md={16} xl={18}>
          <Card
            title={t('对话')}
            size="small"
            styles={{ body: { display: 'flex', flexDirection: 'column', height: 'calc(100vh - 230px)', minHeight: 420, padding: 12 } }}
            extra={
              <Popconfirm title={t('确定清空对话吗？')} onConfirm={chat.clear} okText={t('确定')} cancelText={t('取消')}>
                <Button size="small" icon={<ClearOutlined />}>
                  {t('清空对话')}
                </Button>
              </Popconfirm>
            }
          >
            <Conversation messages={chat.messages} live={chat.live} streaming={chat.streaming} onRegenerate={chat.regenerate} />
            <Composer streaming={chat.streaming} onSend={chat.send} onStop={chat.stop} />
          </Card>
        </Col>
      </Row>
    </Flex>
  );
}

/** The message box: Enter sends, Shift+Enter starts a new line; while a reply streams, stop instead of send. */
function Composer({ streaming, onSend, onStop }: { streaming: boolean; onSend: (text: string) => void; onStop: () => void }) {
  const [text, setText] = useState('');
  const send = () => {
    if (streaming || !text.trim()) return;
    onSend(text);
    setText('');
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      send();
    }
  };
  return (
    <Flex gap={8} align="flex-end" style={{ paddingTop: 8 }}>
      <Input.TextArea
        aria-label={t('输入消息')}
        placeholder={t('输入消息，Enter 发送，Shift+Enter 换行')}
        autoSize={{ minRows: 1, maxRows: 6 }}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
      />
      {streaming ? (
        <Button danger icon={<PauseCircleOutlined />} onClick={onStop}>
          {t('停止生成')}
        </Button>
      ) : (
        <Button type="primary" icon={<SendOutlined />} onClick={send} disabled={!text.trim()}>
          {t('发送')}
        </Button>
      )}
    </Flex>
  );
}
