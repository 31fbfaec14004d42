import { DownloadOutlined, PrinterOutlined } from '@ant-design/icons';
import { Alert, Button, Empty, Form, InputNumber, Radio, Skeleton, Space, Typography } from 'antd';
import { type CSSProperties, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { type LabelCode, MAX_LABELS, materialsCode } from '../../contract/materials-code';
import { api, download, RequestError } from '../../request';
import { APP_PATHS } from '../../shared/app-paths';
import { type QrGeometry, type QrLevel, qrGeometry } from './qr-svg';
import './qrcode-print.css';

/**
 * 打印二维码 (/qrcode/print?total=&size=): `total` new label codes are made and stored by the
 * server (saveBatch), each drawn as an SVG QR code of `codeNum_operateDept_createTime` with its code
 * under it, `size` millimetres wide, ready to print one label per cell (SVG, because canvas codes
 * print blurry). Error correction L by default, M for labels on dirty drums; the quiet zone of 4
 * modules is kept. A batch belongs to its history entry: reloading the page shows the same codes.
 */

export const DEFAULT_SIZE_MM = 40;
const MIN_SIZE_MM = 15;
const MAX_SIZE_MM = 120;
export const QR_MARKS = { data: 'wastegen:qrcode-data', rendered: 'wastegen:qrcode-rendered' } as const;

/** What a label's QR code holds. */
export const labelText = (c: LabelCode): string => `${c.codeNum}_${c.operateDept ?? ''}_${c.createTime}`;

/** One label: its code drawn as SVG (crisp at any print size) with the code's text under it. */
function Label({ code, geometry }: { code: LabelCode; geometry: QrGeometry }) {
  const { side, path } = geometry;
  return (
    <figure className="qr-label" data-code={labelText(code)}>
      <svg className="qr-code" viewBox={`0 0 ${side} ${side}`} shapeRendering="crispEdges" role="img" aria-label={code.codeNum}>
        <rect width={side} height={side} fill="#fff" />
        <path d={path} fill="#000" />
      </svg>
      <figcaption>{code.codeNum}</figcaption>
    </figure>
  );
}

const intOf = (v: string | null): number | undefined => {
  const n = v === null || v.trim() === '' ? Number.NaN : Number(v);
  return Number.isInteger(n) ? n : undefined;
};
const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n));

type Batch = { status: 'idle' } | { status: 'loading' } | { status: 'ready'; codes: LabelCode[] } | { status: 'failed'; message: string };

const storageKey = (locationKey: string) => `wastegen:qrcode-batch:${locationKey}`;

/**
 * The first entry of a page load has no key of its own ('default'): its stored batch is the same
 * entry's only when the page was reloaded or returned to, or already shown in this document; a URL
 * opened afresh makes a new batch.
 */
const loadedHere = new Set<string>();
function sameEntry(locationKey: string): boolean {
  if (locationKey !== 'default' || loadedHere.has(locationKey)) return true;
  const nav = performance.getEntriesByType?.('navigation')[0] as PerformanceNavigationTiming | undefined;
  return nav?.type === 'reload' || nav?.type === 'back_forward';
}

function storedBatch(locationKey: string, total: number): LabelCode[] | undefined {
  try {
    if (!sameEntry(locationKey)) {
      // An earlier load's batch under the same key is not this entry's.
      sessionStorage.removeItem(storageKey(locationKey));
      return undefined;
    }
    const raw = sessionStorage.getItem(storageKey(locationKey));
    const codes = raw ? (JSON.parse(raw) as LabelCode[]) : undefined;
    return Array.isArray(codes) && codes.length === total ? codes : undefined;
  } catch {
    return undefined;
  }
}

// One batch per history entry, even when an effect runs twice.
const pending = new Map<string, Promise<LabelCode[]>>();

function createBatch(locationKey: string, total: number): Promise<LabelCode[]> {
  const key = `${locationKey}:${total}`;
  let p = pending.get(key);
  if (!p) {
    p = api(materialsCode.calls.saveBatch, { query: { createNum: total } }, { silent: true })
      .then((r) => {
        const codes = r.data;
        try {
          sessionStorage.setItem(storageKey(locationKey), JSON.stringify(codes));
        } catch {
          // A full session storage only costs the same codes after a reload.
        }
        return codes;
      })
      .finally(() => pending.delete(key));
    pending.set(key, p);
  }
  return p;
}

/** Fonts first (the code text prints in its font, not a fallback), then the browser's print dialog. */
export async function printLabels(): Promise<void> {
  await document.fonts?.ready;
  const root = document.documentElement;
  root.classList.add('qr-printing');
  try {
    window.print();
  } finally {
    root.classList.remove('qr-printing');
  }
}

export function QrcodePrintPage() {
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const askedTotal = intOf(params.get('total'));
  const total = askedTotal !== undefined && askedTotal >= 1 && askedTotal <= MAX_LABELS ? askedTotal : undefined;
  const [size, setSize] = useState(() => clamp(intOf(params.get('size')) ?? DEFAULT_SIZE_MM, MIN_SIZE_MM, MAX_SIZE_MM));
  const [level, setLevel] = useState<QrLevel>(params.get('level') === 'M' ? 'M' : 'L');
  const [wanted, setWanted] = useState<number | null>(total ?? askedTotal ?? 10);
  const [batch, setBatch] = useState<Batch>({ status: 'idle' });
  const [downloading, setDownloading] = useState(false);
  const sheet = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (total === undefined) {
      setBatch({ status: 'idle' });
      return;
    }
    const saved = storedBatch(location.key, total);
    loadedHere.add(location.key);
    if (saved) {
      setBatch({ status: 'ready', codes: saved });
      return;
    }
    let live = true;
    setBatch({ status: 'loading' });
    createBatch(location.key, total)
      .then((codes) => {
        performance.mark(QR_MARKS.data);
        if (live) setBatch({ status: 'ready', codes });
      })
      .catch((e) => {
        if (live) setBatch({ status: 'failed', message: e instanceof RequestError ? e.message : '二维码生成失败' });
      });
    return () => {
      live = false;
    };
  }, [location.key, total]);

  const geometries = useMemo(() => {
    if (batch.status !== 'ready') return null;
    return batch.codes.map((c) => qrGeometry(labelText(c), level));
  }, [batch, level]);

  // After the commit that put every code into the DOM (the bench reads it).
  useLayoutEffect(() => {
    if (geometries) performance.mark(QR_MARKS.rendered);
  }, [geometries]);

  // Ctrl+P while the sheet is shown prints the labels as the button does.
  useEffect(() => {
    const before = () => {
      if (sheet.current?.offsetParent) document.documentElement.classList.add('qr-printing');
    };
    const after = () => document.documentElement.classList.remove('qr-printing');
    window.addEventListener('beforeprint', before);
    window.addEventListener('afterprint', after);
    return () => {
      window.removeEventListener('beforeprint', before);
      window.removeEventListener('afterprint', after);
    };
  }, []);

  const generate = useCallback(() => {
    if (!wanted) return;
    const q = new URLSearchParams({ total: String(wanted), size: String(size) });
    if (level === 'M') q.set('level', 'M');
    navigate(`${APP_PATHS.qrcodePrint}?${q}`);
  }, [wanted, size, level, navigate]);

  const codes = batch.status === 'ready' ? batch.codes : [];
  const downloadList = async () => {
    const first = codes[0];
    if (!first) return;
    setDownloading(true);
    try {
      await download(
        materialsCode.calls.download.path,
        { createTime: first.createTime },
        `二维码清单_${first.createTime.replace(/\D/g, '')}.xlsx`,
      );
    } finally {
      setDownloading(false);
    }
  };

  return (
    <div className="app-container qr-print-page" data-testid="qrcode-print-page">
      <Form layout="inline" className="qr-print-toolbar" style={{ marginBottom: 12, rowGap: 8 }} onFinish={generate}>
        <Form.Item label="数量">
          <InputNumber aria-label="数量" min={1} max={MAX_LABELS} precision={0} value={wanted} onChange={(v) => setWanted(v)} />
        </Form.Item>
        <Form.Item label="尺寸（毫米）">
          <InputNumber
            aria-label="尺寸（毫米）"
            min={MIN_SIZE_MM}
            max={MAX_SIZE_MM}
            precision={0}
            value={size}
            onChange={(v) => v && setSize(clamp(v, MIN_SIZE_MM, MAX_SIZE_MM))}
          />
        </Form.Item>
        <Form.Item label="纠错等级">
          <Radio.Group
            aria-label="纠错等级"
            optionType="button"
            value={level}
            onChange={(e) => setLevel(e.target.value)}
            options={[
              { value: 'L', label: 'L（默认）' },
              { value: 'M', label: 'M（污损环境）' },
            ]}
          />
        </Form.Item>
        <Form.Item>
          <Space>
            <Button htmlType="submit" disabled={!wanted} loading={batch.status === 'loading'}>
              生成
            </Button>
            <Button type="primary" icon={<PrinterOutlined />} disabled={!geometries?.length} onClick={printLabels}>
              打印
            </Button>
            <Button icon={<DownloadOutlined />} disabled={!codes.length} loading={downloading} onClick={downloadList}>
              下载
            </Button>
          </Space>
        </Form.Item>
      </Form>
      {askedTotal !== undefined && total === undefined && (
        <Alert type="warning" showIcon style={{ marginBottom: 12 }} message={`生成数量应在 1 到 ${MAX_LABELS} 之间`} />
      )}
      {batch.status === 'failed' && (
        <Alert type="error" showIcon role="alert" style={{ marginBottom: 12 }} message="二维码生成失败" description={batch.message} />
      )}
      {batch.status === 'idle' && <Empty description="输入数量后点击“生成”，生成并保存新的二维码编码" />}
      {batch.status === 'loading' && <Skeleton active />}
      {geometries && (
        <>
          <Typography.Paragraph type="secondary" className="qr-print-summary">
            共 {codes.length} 个二维码，每个 {size} 毫米，纠错等级 {level}；生成时间 {codes[0]?.createTime}
          </Typography.Paragraph>
          <div ref={sheet} className="qr-print-area" style={{ '--qr-size': `${size}mm` } as CSSProperties} data-testid="qr-sheet">
            {codes.map((c, i) => {
              const g = geometries[i];
              return g ? <Label key={c.codeNum} code={c} geometry={g} /> : null;
            })}
          </div>
        </>
      )}
    </div>
  );
}
