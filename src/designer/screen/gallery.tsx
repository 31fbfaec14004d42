import { Modal } from 'antd';
import { memo, type ReactNode } from 'react';
import { CHART_LABELS } from './template.js';

/**
 * 添加图表: the chart gallery in two groups. A card shows a cover drawn like the chart, its name, and
 * its author when it names one; a card says nothing it does not know (no 作者未知, no 暂无封面).
 */

export interface GalleryCard {
  kind: string;
  title: string;
  cover?: ReactNode;
  author?: string;
  description: string;
}

const stroke = { fill: 'none', stroke: '#4f8cff', strokeWidth: 3 } as const;

const COVERS: Record<string, ReactNode> = {
  lineBar: (
    <svg viewBox="0 0 120 70" aria-hidden="true">
      {[10, 34, 58, 82].map((x, n) => (
        <rect key={x} x={x} y={60 - [20, 34, 26, 44][n]!} width="14" height={[20, 34, 26, 44][n]} fill="#2f6eff" opacity="0.7" />
      ))}
      <polyline points="17,36 41,22 65,30 89,10 110,18" {...stroke} stroke="#00e0ff" />
    </svg>
  ),
  pie: (
    <svg viewBox="0 0 120 70" aria-hidden="true">
      <circle cx="60" cy="35" r="26" fill="#2f6eff" opacity="0.7" />
      <path d="M60 35 L60 9 A26 26 0 0 1 84 45 Z" fill="#00e0ff" />
    </svg>
  ),
  radar: (
    <svg viewBox="0 0 120 70" aria-hidden="true">
      <polygon points="60,6 88,24 80,60 40,60 32,24" {...stroke} strokeWidth={1.5} />
      <polygon points="60,18 78,28 70,50 46,54 42,28" fill="#00e0ff" opacity="0.5" />
    </svg>
  ),
  figures: (
    <svg viewBox="0 0 120 70" aria-hidden="true">
      {[8, 44, 80].map((x) => (
        <g key={x}>
          <rect x={x} y="14" width="32" height="42" rx="3" fill="#2f6eff" opacity="0.35" />
          <rect x={x + 6} y="24" width="20" height="10" rx="1" fill="#00e0ff" />
          <rect x={x + 6} y="40" width="20" height="5" rx="1" fill="#2f6eff" opacity="0.8" />
        </g>
      ))}
    </svg>
  ),
  table: (
    <svg viewBox="0 0 120 70" aria-hidden="true">
      <rect x="12" y="8" width="96" height="10" fill="#2f6eff" opacity="0.9" />
      {[22, 34, 46, 58].map((y) => (
        <g key={y}>
          <rect x="12" y={y} width="40" height="8" fill="#2f6eff" opacity="0.45" />
          <rect x="56" y={y} width="24" height="8" fill="#00e0ff" opacity="0.6" />
          <rect x="84" y={y} width="24" height="8" fill="#00e0ff" opacity="0.35" />
        </g>
      ))}
    </svg>
  ),
  scrollList: (
    <svg viewBox="0 0 120 70" aria-hidden="true">
      {[10, 24, 38, 52].map((y) => (
        <rect key={y} x="14" y={y} width="92" height="9" rx="2" fill="#2f6eff" opacity={y === 10 ? 0.9 : 0.45} />
      ))}
    </svg>
  ),
};

export const GALLERY: { group: string; cards: GalleryCard[] }[] = [
  {
    group: '研发通用图表',
    cards: [
      { kind: 'lineBar', title: CHART_LABELS.lineBar as string, cover: COVERS.lineBar, description: 'X 轴一列，折线与柱状各若干列' },
      { kind: 'pie', title: CHART_LABELS.pie as string, cover: COVERS.pie, description: '名称一列，数值一列；可做环形、玫瑰图' },
      { kind: 'scrollList', title: CHART_LABELS.scrollList as string, cover: COVERS.scrollList, description: '数据视图的行逐行滚动' },
      { kind: 'radar', title: CHART_LABELS.radar as string, cover: COVERS.radar, description: '示例数据；选择数据视图后显示其数据' },
    ],
  },
  {
    group: '业务定制图表',
    cards: [
      { kind: 'siteInfo', title: CHART_LABELS.siteInfo as string, cover: COVERS.figures, description: '全站汇总数字' },
      { kind: 'provinceInfo', title: CHART_LABELS.provinceInfo as string, cover: COVERS.figures, description: '省级汇总数字' },
      { kind: 'companyData', title: CHART_LABELS.companyData as string, cover: COVERS.figures, description: '企业数据汇总数字' },
      {
        kind: 'cityTransaction',
        title: CHART_LABELS.cityTransaction as string,
        cover: COVERS.table,
        description: '城市、交易金额、已付金额（元）',
      },
    ],
  },
];

export const ChartGallery = memo(function ChartGallery({
  open,
  target,
  onPick,
  onClose,
}: {
  open: boolean;
  target?: string;
  onPick(kind: string): void;
  onClose(): void;
}) {
  return (
    <Modal open={open} title="添加图表" footer={null} width={760} onCancel={onClose} destroyOnHidden>
      <p className="wg-design-note">{target ? `添加到容器 ${target}` : '将新建一个容器放置图表'}</p>
      {GALLERY.map((g) => (
        <section key={g.group} className="wg-design-gallery-group" aria-label={g.group}>
          <h4>{g.group}</h4>
          <div className="wg-design-gallery">
            {g.cards.map((card) => (
              <button
                key={card.kind}
                type="button"
                className="wg-design-card"
                aria-label={card.title}
                title={card.description}
                onClick={() => onPick(card.kind)}
              >
                {card.cover && <div className="wg-design-card-cover">{card.cover}</div>}
                <div className="wg-design-card-title">{card.title}</div>
                <div className="wg-design-card-author">{card.author ?? card.description}</div>
              </button>
            ))}
          </div>
        </section>
      ))}
    </Modal>
  );
});
