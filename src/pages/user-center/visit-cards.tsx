import { Card, Col, Empty, Row, Spin, Statistic } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { type EChartsType, loadECharts } from '../../engine';
import { fetchVisitChart, fetchVisitTotals, type VisitChart } from './user-center-api';

/** One week as a line; ECharts is loaded with the first chart, never with the page's own chunk. */
function WeekLine({ days, values, color, label }: { days: string[]; values: number[]; color: string; label: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let chart: EChartsType | undefined;
    let gone = false;
    const resize = () => chart?.resize();
    void loadECharts().then(({ init }) => {
      if (gone || !box.current) return;
      chart = init(box.current);
      chart.setOption({
        grid: { left: 36, right: 12, top: 16, bottom: 24 },
        xAxis: { type: 'category', boundaryGap: false, data: days },
        yAxis: { type: 'value', minInterval: 1 },
        series: [{ name: label, type: 'line', smooth: true, data: values, itemStyle: { color }, areaStyle: { opacity: 0.15 } }],
      });
      window.addEventListener('resize', resize);
    });
    return () => {
      gone = true;
      window.removeEventListener('resize', resize);
      chart?.dispose();
    };
  }, [days, values, color, label]);
  return (
    <div ref={box} role="img" aria-label={`${label}：${days.map((d, i) => `${d} ${values[i]}`).join('，')}`} style={{ height: 220 }} />
  );
}

/** Weekly traffic (recentVisits) and weekly unique IPs (recentIp), from /api/visits and its chart data. */
export function VisitCards() {
  const [chart, setChart] = useState<VisitChart | null>(null);
  const [totals, setTotals] = useState<{ recentVisits: number; recentIp: number } | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let gone = false;
    Promise.all([fetchVisitChart(), fetchVisitTotals()])
      .then(([c, t]) => {
        if (gone) return;
        setChart(c);
        setTotals(t);
      })
      .catch(() => !gone && setFailed(true));
    return () => {
      gone = true;
    };
  }, []);

  const card = (title: string, testId: string, total: number | undefined, values: number[] | undefined, color: string) => (
    <Card title={title} size="small" data-testid={testId}>
      {failed ? (
        <Empty description="访问数据加载失败" />
      ) : !chart || !values ? (
        <Spin style={{ display: 'block', margin: '90px auto' }} />
      ) : (
        <>
          <Statistic title="近7天合计" value={total ?? 0} />
          <WeekLine days={chart.weekDays} values={values} color={color} label={title} />
        </>
      )}
    </Card>
  );

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} md={12}>
        {card('本周访问量', 'recent-visits', totals?.recentVisits, chart?.visitsData, '#2F6EFF')}
      </Col>
      <Col xs={24} md={12}>
        {card('本周独立IP', 'recent-ip', totals?.recentIp, chart?.ipData, '#13c2c2')}
      </Col>
    </Row>
  );
}
