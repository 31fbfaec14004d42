import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import { Button, Card, Carousel, Empty, Spin } from 'antd';
import type { CarouselRef } from 'antd/es/carousel';
import { useEffect, useRef, useState } from 'react';
import { citySlides } from './rules';
import { type CityCount, fetchCities } from './user-center-api';

/** The cities of the user's province with the platform's companies in each: 6 on the first slide, the rest on the second. */
export function CityCarousel() {
  const [data, setData] = useState<{ province: string | null; cities: CityCount[] } | null>(null);
  const [failed, setFailed] = useState(false);
  const ref = useRef<CarouselRef>(null);

  useEffect(() => {
    let gone = false;
    fetchCities()
      .then((r) => !gone && setData({ province: r.province?.name ?? null, cities: r.cities }))
      .catch(() => !gone && setFailed(true));
    return () => {
      gone = true;
    };
  }, []);

  const slides = data ? citySlides(data.cities) : [];
  const title = data?.province ? `${data.province}入驻企业分布` : '入驻企业分布';
  return (
    <Card
      size="small"
      title={title}
      data-testid="city-carousel"
      extra={
        slides.length > 1 && (
          <span>
            <Button type="text" size="small" icon={<LeftOutlined />} aria-label="上一页" onClick={() => ref.current?.prev()} />
            <Button type="text" size="small" icon={<RightOutlined />} aria-label="下一页" onClick={() => ref.current?.next()} />
          </span>
        )
      }
    >
      {failed ? (
        <Empty description="城市数据加载失败" />
      ) : !data ? (
        <Spin style={{ display: 'block', margin: '24px auto' }} />
      ) : !slides.length ? (
        <Empty description="暂无城市数据" />
      ) : (
        <Carousel ref={ref} autoplay autoplaySpeed={5000} dots={slides.length > 1}>
          {slides.map((cities, i) => (
            <div key={cities[0]?.code ?? i}>
              <div
                className="wg-city-slide"
                data-slide={i}
                style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(120px, 1fr))', gap: 12, paddingBottom: 28 }}
              >
                {cities.map((c) => (
                  <div
                    key={c.code}
                    className="wg-city"
                    data-code={c.code}
                    style={{ border: '1px solid rgba(5,5,5,0.06)', borderRadius: 6, padding: '10px 12px' }}
                  >
                    <div style={{ fontWeight: 600 }}>{c.name}</div>
                    <div style={{ fontSize: 20, color: '#2F6EFF' }}>{c.companies}</div>
                    <div style={{ fontSize: 12, color: 'rgba(0,0,0,0.45)' }}>家企业</div>
                  </div>
                ))}
              </div>
            </div>
          ))}
        </Carousel>
      )}
    </Card>
  );
}
