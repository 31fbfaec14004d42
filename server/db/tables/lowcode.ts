import type { Generated } from 'kysely';
import type { Timestamp } from '../schema.js';

// Tables of the lowcode module (migration in ../migrations/0004_lowcode.ts). Each designed view also
// owns a table lc_view_{id} whose columns follow its definition; those are queried through sql``.
export interface LowcodeTables {
  lc_generation: {
    id: Generated<number>;
    name: string;
    menu_id: number | null;
    /** 0 draft, 1 published */
    status: Generated<number>;
    /** JSON text as received: {componentName, name} */
    dis_menu: string | null;
    /** JSON text as received; null until designed */
    dis_template: string | null;
    /** Raised by every save of the definition; a save from an older version is refused. */
    version: Generated<number>;
    create_time: Timestamp;
    update_time: Timestamp;
  };
  lc_screen: {
    id: Generated<number>;
    name: string;
    menu_id: number | null;
    /** 1 enabled */
    status: Generated<number>;
    /** 1 base preview, 2 big screen, 3 form preview, 4 container */
    type: number;
    dis_menu: string | null;
    dis_template: string | null;
    /** Key that share links must carry; renewing it revokes them. Null until first shared. */
    access_key: string | null;
    /** Raised by every save of the design; a save from an older version is refused. */
    version: Generated<number>;
    create_time: Timestamp;
    update_time: Timestamp;
  };
  lc_data_view: {
    id: Generated<number>;
    name: string;
    sql: string;
    create_time: Timestamp;
    update_time: Timestamp;
  };
}
