import type { ReactNode } from 'react';
import { Button, type ButtonProps } from 'antd';
import { CopyOutlined } from '@ant-design/icons';
import { useCopyText } from './useCopyText';
import { t } from '../lib/i18n';

interface Props extends Omit<ButtonProps, 'onClick'> {
  text: string;
  /** Toast on success; defaults to '已复制到剪贴板！'. */
  successText?: string;
  children?: ReactNode;
}

/** A button that copies `text` (label defaults to 复制). */
export function CopyButton({ text, successText, children, ...rest }: Props) {
  const copy = useCopyText();
  return (
    <Button icon={<CopyOutlined />} {...rest} onClick={() => void copy(text, successText)}>
      {children ?? t('复制')}
    </Button>
  );
}
