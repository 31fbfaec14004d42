import { ReloadOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Flex, Skeleton, Tooltip, Typography } from 'antd';
import type { ReactNode } from 'react';

export interface BlockProps {
  title: ReactNode;
  /** When the figures shown were computed (the answer's computedAt); none before the first answer. */
  computedAt?: string | null;
  loading: boolean;
  error: string | null;
  /** Whether there is something to show yet. */
  ready: boolean;
  /** Recomputes the block's figures now (isRefresh=1). */
  onRefresh?: () => void;
  extra?: ReactNode;
  children: ReactNode;
  testId?: string;
}

/**
 * One dashboard block: title, when its figures were computed, and a refresh control that has the
 * server compute them now. Before the first answer it shows a skeleton; a failed load shows the
 * server's message with a retry, above the last figures when there were some.
 */
export function Block({ title, computedAt, loading, error, ready, onRefresh, extra, children, testId }: BlockProps) {
  return (
    <Card
      size="small"
      title={title}
      data-testid={testId}
      data-state={ready ? 'ready' : error ? 'error' : 'loading'}
      style={{ height: '100%' }}
      extra={
        <Flex align="center" gap={8}>
          {extra}
          {computedAt && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }} className="wg-computed-at">
              更新于 {computedAt}
            </Typography.Text>
          )}
          {onRefresh && (
            <Tooltip title="刷新">
              <Button
                type="text"
                size="small"
                aria-label={`刷新${typeof title === 'string' ? title : ''}`}
                icon={<ReloadOutlined spin={loading && ready} />}
                onClick={onRefresh}
                disabled={loading}
              />
            </Tooltip>
          )}
        </Flex>
      }
    >
      {error && (
        <Alert
          type="error"
          showIcon
          title={error}
          style={{ marginBottom: ready ? 12 : 0 }}
          action={
            onRefresh && (
              <Button size="small" onClick={onRefresh}>
                重试
              </Button>
            )
          }
        />
      )}
      {ready ? children : !error && <Skeleton active paragraph={{ rows: 2 }} title={false} />}
    </Card>
  );
}
