import { ReloadOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Col, type ColProps, Flex, Row, Skeleton, Tooltip, Typography } from 'antd';
import type { ReactNode } from 'react';
import type { FigureState } from './use-figure';

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
      {error && <RetryAlert error={error} retry={onRefresh} marginBottom={ready ? 12 : 0} />}
      {ready ? children : !error && <Skeleton active paragraph={{ rows: 2 }} title={false} />}
    </Card>
  );
}

/** A failed load's message, with 重试 when it can be retried. */
export function RetryAlert({ error, retry, marginBottom }: { error: string; retry?: () => void; marginBottom: number }) {
  return (
    <Alert
      type="error"
      showIcon
      title={error}
      style={{ marginBottom }}
      action={
        retry && (
          <Button size="small" onClick={retry}>
            重试
          </Button>
        )
      }
    />
  );
}

export interface FigureBlockProps<T> extends Omit<BlockProps, 'loading' | 'error' | 'ready' | 'onRefresh' | 'children'> {
  figure: FigureState<T>;
  /** The refresh control has the server compute the figure now; false: it only asks again. */
  recompute?: boolean;
  /** The block's body, once the figure has come. */
  children: (data: T) => ReactNode;
}

/** A block showing one figure call: its loading, failure and refresh come from the call's state. */
export function FigureBlock<T>({ figure, recompute = true, children, ...block }: FigureBlockProps<T>) {
  return (
    <Block {...block} loading={figure.loading} error={figure.error} ready={figure.data !== null} onRefresh={() => figure.reload(recompute)}>
      {figure.data !== null && children(figure.data)}
    </Block>
  );
}

/** Block widths in a home's grid: the whole row, half of a wide screen, a third of a large one. */
export const WHOLE: ColProps = { span: 24 };
export const HALF: ColProps = { xs: 24, xl: 12 };
export const THIRD: ColProps = { xs: 24, lg: 8 };

/** A home: its blocks in a grid, each with its width. */
export function BlockGrid({ testId, blocks }: { testId: string; blocks: { col: ColProps; block: ReactNode }[] }) {
  return (
    <Row gutter={[16, 16]} data-testid={testId}>
      {blocks.map(({ col, block }, i) => (
        // The blocks of a home are fixed: their place is their key.
        // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list
        <Col key={i} {...col}>
          {block}
        </Col>
      ))}
    </Row>
  );
}
