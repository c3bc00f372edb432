import { useEffect, useRef, useState } from 'react';
import { Flex, Spin, Typography } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import type { Envelope, LoginUser } from '@switchyard/shared';
import { api } from '../../api/client';
import { notify } from '../../lib/notify';
import { t } from '../../lib/i18n';
import { useSignedIn } from '../login/useLogin';

/** Tries after the first failure; the wait before try n is 2 s x n (spec §4, GitHub callback). */
export const GITHUB_CALLBACK_RETRIES = 3;
const RETRY_STEP_MS = 2000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Where GitHub sends the browser back with code and state. The server binds the GitHub account to the signed-in
 * user (answer 'bind') or signs in with it. Failures are retried, waiting longer each time; with no attempt left the
 * page goes to /setting (where a failed binding was started).
 */
export default function GitHubCallbackPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const signedIn = useSignedIn();
  const [prompt, setPrompt] = useState(t('处理中...'));
  // The exchange must run once: a GitHub code works a single time.
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const code = params.get('code') ?? '';
    const state = params.get('state') ?? '';
    if (!code) {
      // GitHub sends no code when the visitor declined: nothing to exchange, nothing to retry.
      notify.error(t('GitHub 授权未完成'));
      void navigate('/setting');
      return;
    }
    const send = async (attempt: number): Promise<void> => {
      let res: Envelope<LoginUser> | null = null;
      try {
        res = await api.get<LoginUser>('/api/oauth/github', { code, state });
      } catch {
        res = null;
      }
      if (res?.success) {
        if (res.message === 'bind') {
          notify.success(t('绑定成功！'));
          void navigate('/setting?tab=personal');
        } else if (res.data) {
          signedIn(res.data, '/token');
        }
        return;
      }
      const left = GITHUB_CALLBACK_RETRIES - attempt;
      if (left === 0) {
        setPrompt(t('操作失败，重定向至设置页面中...'));
        void navigate('/setting');
        return;
      }
      const next = attempt + 1;
      setPrompt(t('出现错误，第 {n} 次重试中...', { n: next }));
      await sleep(next * RETRY_STEP_MS);
      await send(next);
    };
    void send(0);
  }, [params, navigate, signedIn]);

  return (
    <Flex vertical align="center" gap={16} style={{ paddingBlock: 64 }}>
      <Spin size="large" />
      <Typography.Text>{prompt}</Typography.Text>
    </Flex>
  );
}
