import { CloseCircleFilled } from '@ant-design/icons';
import { Button, Flex } from 'antd';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router-dom';

function describe(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`.trim();
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

/**
 * What the user sees instead of a blank page when rendering fails. Plain markup rather than antd's
 * Result, whose status pictures would load with every page, the login page included.
 */
export function ErrorPanel({ error }: { error: unknown }) {
  return (
    <Flex vertical align="center" gap={12} role="alert" style={{ padding: '48px 32px', textAlign: 'center' }}>
      <CloseCircleFilled style={{ fontSize: 72, color: '#ff4d4f' }} />
      <div style={{ fontSize: 24, lineHeight: 1.33, color: 'rgba(0,0,0,0.88)' }}>页面出错了</div>
      <div style={{ fontSize: 14, color: 'rgba(0,0,0,0.45)' }}>{describe(error)}</div>
      <Button type="primary" onClick={() => window.location.reload()} style={{ marginTop: 12 }}>
        重新加载
      </Button>
    </Flex>
  );
}

/** Router-level errors (a route that throws while rendering or loading). */
export function RouteErrorPanel() {
  return <ErrorPanel error={useRouteError()} />;
}

/** Errors outside the router (providers, the router itself). */
export class ErrorBoundary extends Component<{ children: ReactNode }, { error: unknown }> {
  override state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  override render() {
    return this.state.error ? <ErrorPanel error={this.state.error} /> : this.props.children;
  }
}
