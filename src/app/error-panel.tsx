import { Button, Result } from 'antd';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router-dom';

function describe(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`.trim();
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

/** What the user sees instead of a blank page when rendering fails. */
export function ErrorPanel({ error }: { error: unknown }) {
  return (
    <Result
      status="error"
      title="页面出错了"
      subTitle={describe(error)}
      extra={
        <Button type="primary" onClick={() => window.location.reload()}>
          重新加载
        </Button>
      }
    />
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
