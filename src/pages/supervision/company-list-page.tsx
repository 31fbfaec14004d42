import { Button, Card, Flex, Input, Select, Table, Tag, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router-dom';
import { type SupervisedCompany, supervision } from '../../contract/supervision';
import { tablePager } from '../../engine';
import { trimChar } from '../../model';
import { api } from '../../request';
import { useSession } from '../../session/session-store';
import { formatWeight } from '../../shared/format';
import { RetryAlert } from '../dashboard/block';
import { pathOfNamedRoute } from '../dashboard/named-routes';

type Flag = '0' | '1' | undefined;
const flagOf = (v: string | null): Flag => (v === '0' || v === '1' ? v : undefined);

/** A yes-no filter of the list: `1` for `yes`, `0` for `no`, cleared for either. */
function FlagSelect({
  label,
  yes,
  no,
  value,
  onChange,
}: {
  label: string;
  yes: string;
  no: string;
  value: Flag;
  onChange: (v: Flag) => void;
}) {
  return (
    <Select<string>
      allowClear
      placeholder={label}
      aria-label={label}
      style={{ width: 140 }}
      value={value}
      onChange={(v) => onChange(flagOf(v ?? null))}
      options={[
        { value: '1', label: yes },
        { value: '0', label: no },
      ]}
    />
  );
}

/**
 * The producing companies behind the supervisory home's figures (the summaryPage and companyMange
 * routes). The filters live in the address — `micro`, `haveYearCount`, `haveServerCount`, `blurry`,
 * `page` — so the home's links open the list a figure counts, and a reload keeps what was picked.
 * Reached as summaryPage it starts on the small and micro companies.
 */
export function CompanyListPage() {
  const { pathname } = useLocation();
  const { menus } = useSession();
  const [params, setParams] = useSearchParams();
  const isSummary = pathOfNamedRoute(menus, 'summaryPage') === trimChar(pathname, '/', 'end');
  // summaryPage starts on the small and micro companies; `micro=` (empty) asks for every size.
  const micro: Flag = params.has('micro') ? flagOf(params.get('micro')) : isSummary ? '1' : undefined;
  const haveYearCount = flagOf(params.get('haveYearCount'));
  const haveServerCount = flagOf(params.get('haveServerCount'));
  const blurry = params.get('blurry') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const size = 10;
  const [typed, setTyped] = useState(blurry);
  const [data, setData] = useState<{ content: SupervisedCompany[]; totalElements: number } | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [round, setRound] = useState(0);

  const query = useMemo(
    () => ({ micro, haveYearCount, haveServerCount, blurry: blurry || undefined, page: page - 1, size }),
    [micro, haveYearCount, haveServerCount, blurry, page],
  );

  useEffect(() => {
    // round: a retry asks again with the same filters.
    void round;
    let live = true;
    setLoading(true);
    api(supervision.calls.companies, { query }, { silent: true })
      .then((r) => {
        if (!live) return;
        setData(r);
        setError(null);
      })
      .catch((e: unknown) => live && setError(e instanceof Error && e.message ? e.message : '接口请求失败'))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [query, round]);

  /** Changes filters in the address; any filter change goes back to the first page. */
  const update = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v === undefined) next.delete(k);
      else next.set(k, v);
    }
    if (!('page' in changes)) next.delete('page');
    setParams(next, { replace: true });
  };

  return (
    <Card title={isSummary ? '小微企业汇总' : '企业管理'} size="small">
      <Flex gap={8} wrap style={{ marginBottom: 12 }} role="search">
        <Input.Search
          allowClear
          placeholder="企业名称或信用代码"
          aria-label="企业名称或信用代码"
          style={{ width: 240 }}
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          onSearch={(v) => update({ blurry: v.trim() || undefined })}
        />
        <FlagSelect
          label="企业规模"
          yes="小微企业"
          no="非小微企业"
          value={micro}
          onChange={(v) => update({ micro: v ?? (isSummary ? '' : undefined) })}
        />
        <FlagSelect label="合同情况" yes="已签约" no="未签约" value={haveYearCount} onChange={(v) => update({ haveYearCount: v })} />
        <FlagSelect
          label="服务情况"
          yes="本年已服务"
          no="本年未服务"
          value={haveServerCount}
          onChange={(v) => update({ haveServerCount: v })}
        />
        <Button
          onClick={() => {
            setTyped('');
            setParams(new URLSearchParams(), { replace: true });
          }}
        >
          重置
        </Button>
      </Flex>
      {error && <RetryAlert error={error} retry={() => setRound((r) => r + 1)} marginBottom={12} />}
      <Table<SupervisedCompany>
        size="small"
        rowKey="id"
        loading={loading}
        dataSource={data?.content ?? []}
        locale={{ emptyText: '暂无符合条件的企业' }}
        pagination={tablePager(
          { page, size, total: data?.totalElements ?? 0, onChange: (p) => update({ page: String(p) }) },
          { totalText: (t) => `共 ${t} 家` },
        )}
        columns={[
          { title: '企业名称', dataIndex: 'name' },
          { title: '统一社会信用代码', dataIndex: 'creditCode', render: (v) => v ?? '-' },
          { title: '地区', dataIndex: 'regionFmt', render: (v) => v ?? '-' },
          {
            title: '联系人',
            dataIndex: 'contactName',
            render: (v, r) => (v ? `${v}${r.contactPhone ? ` ${r.contactPhone}` : ''}` : '-'),
          },
          {
            title: '本年入库（吨）',
            dataIndex: 'yearStockTons',
            align: 'right',
            render: (v: number, r) => (
              <Flex gap={4} justify="flex-end" align="center">
                {r.micro && <Tag color="orange">小微</Tag>}
                <Typography.Text>{formatWeight(v)}</Typography.Text>
              </Flex>
            ),
          },
          { title: '合同', dataIndex: 'haveContract', render: (v: boolean) => (v ? <Tag color="success">已签约</Tag> : <Tag>未签约</Tag>) },
          {
            title: '本年服务',
            dataIndex: 'haveServer',
            render: (v: boolean) => (v ? <Tag color="success">已服务</Tag> : <Tag>未服务</Tag>),
          },
        ]}
      />
    </Card>
  );
}
