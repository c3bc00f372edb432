import { useEffect, useRef, useState } from 'react';
import { Button, Modal, Space, Typography } from 'antd';
import { ZoomInOutlined, ZoomOutOutlined, UndoOutlined } from '@ant-design/icons';
import { t } from '../lib/i18n';
import { ZOOM_MAX, ZOOM_MIN, wheelDirection, zoomed } from './imageZoom';

interface ImageViewerProps {
  /** The image shown; null keeps the viewer closed. */
  src: string | null;
  onClose(): void;
}

/** A dialog showing one image with zoom in, out and reset (buttons and the mouse wheel). */
export function ImageViewer({ src, onClose }: ImageViewerProps) {
  return (
    <Modal open={src !== null} title={t('查看图片')} onCancel={onClose} footer={null} width={900} destroyOnHidden>
      {src !== null && <ZoomableImage key={src} src={src} />}
    </Modal>
  );
}

function ZoomableImage({ src }: { src: string }) {
  const [zoom, setZoom] = useState(1);
  const frame = useRef<HTMLDivElement>(null);

  // React's wheel listener is passive, so it cannot stop the page from scrolling: listen natively instead.
  useEffect(() => {
    const el = frame.current;
    if (!el) return;
    const onWheel = (e: WheelEvent) => {
      const direction = wheelDirection(e.deltaY);
      if (direction === 0) return;
      e.preventDefault();
      setZoom((z) => zoomed(z, direction));
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, []);

  return (
    <>
      <Space style={{ marginBottom: 12 }}>
        <Button icon={<ZoomOutOutlined />} aria-label={t('缩小图片')} title={t('缩小图片')} disabled={zoom <= ZOOM_MIN} onClick={() => setZoom((z) => zoomed(z, -1))} />
        <Button icon={<ZoomInOutlined />} aria-label={t('放大图片')} title={t('放大图片')} disabled={zoom >= ZOOM_MAX} onClick={() => setZoom((z) => zoomed(z, 1))} />
        <Button icon={<UndoOutlined />} aria-label={t('重置')} title={t('重置')} onClick={() => setZoom(1)} />
        <Typography.Text aria-label={t('缩放比例')}>{`${Math.round(zoom * 100)}%`}</Typography.Text>
      </Space>
      {/* The width (not a transform) grows with the zoom, so the frame scrolls over an enlarged image. */}
      <div ref={frame} style={{ height: '65vh', overflow: 'auto' }}>
        <img src={src} alt={t('结果图片')} style={{ display: 'block', margin: '0 auto', width: `${zoom * 100}%`, height: 'auto' }} />
      </div>
    </>
  );
}
