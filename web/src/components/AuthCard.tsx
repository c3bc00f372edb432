import type { ReactNode } from 'react';
import { Card, Flex, Typography } from 'antd';
import { siteLogo, useStatus } from '../app/status';

/** The centred card of the sign-in and sign-up pages, headed by the site logo and a title. */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  const { status } = useStatus();
  return (
    <Flex justify="center" style={{ paddingBlock: 24 }}>
      <Card style={{ width: '100%', maxWidth: 420 }}>
        <Flex vertical align="center" gap={8} style={{ marginBottom: 16 }}>
          <img src={siteLogo(status)} alt="" width={48} height={48} style={{ borderRadius: 10 }} />
          <Typography.Title level={3} style={{ margin: 0 }}>
            {title}
          </Typography.Title>
        </Flex>
        {children}
      </Card>
    </Flex>
  );
}
