import { FormOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useEffect, useState } from 'react';
import { disposalOrders } from '../../contract/disposal-order';
import { api } from '../../request';
import { ManualOrderDialog } from './manual-order-dialog';

/**
 * 手工录入 on the disposal order list: shown only when the server answers addBtnShow 1 for the
 * user. It opens 新增手工处置单; a saved order reloads the list.
 */
export function ManualOrderButton({ onCreated }: { onCreated: () => void }) {
  const [shown, setShown] = useState(false);
  const [open, setOpen] = useState(false);
  useEffect(() => {
    let live = true;
    // Without an answer the button stays hidden: the server decides who may add.
    api(disposalOrders.calls.addButton, {}, { silent: true })
      .then((r) => live && setShown(r.addBtnShow === 1))
      .catch(() => live && setShown(false));
    return () => {
      live = false;
    };
  }, []);
  if (!shown) return null;
  return (
    <>
      <Button icon={<FormOutlined />} onClick={() => setOpen(true)} data-manual-order>
        手工录入
      </Button>
      <ManualOrderDialog open={open} onClose={() => setOpen(false)} onCreated={onCreated} />
    </>
  );
}
