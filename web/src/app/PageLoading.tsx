import { Flex, Spin } from 'antd';
import { t } from '../lib/i18n';

/** Shown while a lazily loaded page arrives. */
export function PageLoading() {
  return (
    <Flex align="center" justify="center" style={{ minHeight: 240 }}>
      <Spin description={t('加载中...')} />
    </Flex>
  );
}
