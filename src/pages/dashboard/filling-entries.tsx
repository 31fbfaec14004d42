import { ExportOutlined } from '@ant-design/icons';
import { Button, Flex, Typography } from 'antd';
import { useState } from 'react';
import { companyApi } from '../../contract/company-api';
import { FILLING_OK, fillingSystem } from '../../contract/filling-system';
import { api } from '../../request';
import { useSession } from '../../session/session-store';
import { Block } from './block';
import { useFigure } from './use-figure';

/** What the entries read of the user's company. */
export interface CompanyInfo {
  bciId: string | null;
  creditCode: string | null;
  deptCode: string | null;
  fillingEntry: boolean;
}

const ENTRIES = [
  { key: 'danger', title: '危废转移联单填报', url: 'dangerUrl' as const },
  { key: 'plan', title: '管理计划查询', url: 'planUrl' as const },
];

/**
 * 填报系统: entries into the environmental authority's filling system, for companies with a company
 * id on file (never the supervisory department). A click obtains a token for the company, then opens
 * the authority's page in a popup. The popup is opened at once, while the click still counts as the
 * user's, and pointed at the page when the token is there.
 */
export function FillingEntriesBlock({ company }: { company: CompanyInfo }) {
  const [busy, setBusy] = useState<string | null>(null);

  const open = async (entry: (typeof ENTRIES)[number]) => {
    const popup = window.open('', `gufei-${entry.key}`, 'width=1200,height=800');
    setBusy(entry.key);
    try {
      const r = await api(fillingSystem.calls.token, {
        query: { CompanyCode: company.bciId ?? company.creditCode ?? company.deptCode ?? '' },
      });
      // Any code but 00000 is ignored, as the specification says: the popup closes and nothing opens.
      if (r.code !== FILLING_OK || !r.data) {
        popup?.close();
        return;
      }
      if (popup) popup.location.href = r.data[entry.url];
      else window.open(r.data[entry.url], `gufei-${entry.key}`, 'width=1200,height=800');
    } catch {
      popup?.close();
    } finally {
      setBusy(null);
    }
  };

  return (
    <Flex vertical gap={8}>
      {ENTRIES.map((e) => (
        <Button key={e.key} block icon={<ExportOutlined />} loading={busy === e.key} onClick={() => void open(e)}>
          {e.title}
        </Button>
      ))}
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        企业编号 {company.bciId}
      </Typography.Text>
    </Flex>
  );
}

/**
 * The block around the entries, shown only when the user's company may use them. The company is
 * looked up by the user's department code (companyApi/info?deptCode=…), as the specification asks.
 */
export function FillingBlock() {
  const deptCode = useSession().info?.user.deptCode ?? undefined;
  const info = useFigure(companyApi.calls.info, deptCode ? { deptCode } : {});
  if (!info.data?.fillingEntry) return null;
  return (
    <Block title="填报系统" testId="dash-filling" loading={info.loading} error={info.error} ready>
      <FillingEntriesBlock company={info.data} />
    </Block>
  );
}
