import { Button, type ButtonProps } from 'antd';
import { useNavigate } from 'react-router-dom';

/** A button that is a link to one of the app's routes: opened in place by the router, or in a new tab as a link. */
export function RouteButton({ to, ...props }: Omit<ButtonProps, 'href' | 'onClick'> & { to: string }) {
  const navigate = useNavigate();
  return (
    <Button
      {...props}
      href={to}
      onClick={(e) => {
        e.preventDefault();
        navigate(to);
      }}
    />
  );
}
