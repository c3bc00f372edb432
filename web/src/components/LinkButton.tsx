import { Button, type ButtonProps } from 'antd';
import { useNavigate } from 'react-router';

/** A button that moves to another console page (a real button, not a link wrapping one). */
export function LinkButton({ to, ...rest }: Omit<ButtonProps, 'onClick' | 'href'> & { to: string }) {
  const navigate = useNavigate();
  return <Button {...rest} onClick={() => void navigate(to)} />;
}
