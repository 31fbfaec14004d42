import { Form, Tooltip, Typography } from 'antd';
import type { ReactNode } from 'react';
import { isWarning, type Problem } from '../../model/index';
import { problemsAt } from './designer-model';

/** A problem as `wastegen check` prints it: code and message. */
export const problemLine = (p: Problem) => `${p.code}: ${p.message}${p.hint ? `（${p.hint}）` : ''}`;

/** The status and help a control shows for the problems at its pointer (and below it). */
export function statusOf(problems: readonly Problem[], pointer: string): { validateStatus?: 'error' | 'warning'; help?: ReactNode } {
  const here = problemsAt(problems, pointer);
  if (!here.length) return {};
  const error = here.some((p) => !isWarning(p));
  return {
    validateStatus: error ? 'error' : 'warning',
    help: (
      <span data-problem-pointer={pointer}>
        {here.map((p) => (
          <span key={`${p.pointer}:${p.code}:${p.message}`} style={{ display: 'block' }}>
            {problemLine(p)}
          </span>
        ))}
      </span>
    ),
  };
}

/** A labelled control of an options form, with the problems at its JSON pointer under it. */
export function Cell({
  label,
  pointer,
  problems,
  extra,
  children,
}: {
  label: ReactNode;
  pointer: string;
  problems: readonly Problem[];
  extra?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Form.Item label={label} extra={extra} {...statusOf(problems, pointer)} style={{ marginBottom: 12 }}>
      {children}
    </Form.Item>
  );
}

/** A compact marker for a table cell: red (error) or orange (warning) text with the problems in a tooltip. */
export function CellProblems({ problems, pointer }: { problems: readonly Problem[]; pointer: string }) {
  const here = problemsAt(problems, pointer);
  if (!here.length) return null;
  const error = here.some((p) => !isWarning(p));
  return (
    <Tooltip title={here.map(problemLine).join('\n')}>
      <Typography.Text type={error ? 'danger' : 'warning'} style={{ fontSize: 12, display: 'block' }} data-problem-pointer={pointer}>
        {problemLine(here[0] as Problem)}
        {here.length > 1 ? ` 等 ${here.length} 项` : ''}
      </Typography.Text>
    </Tooltip>
  );
}
