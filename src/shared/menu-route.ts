/**
 * One route of the menus' build call (`menus.build` of the contract) (eladmin's shape), as the server builds it and the app's shell
 * reads it. Paths of children are relative, except low-code pages.
 */
export interface MenuRoute {
  name: string;
  path: string;
  hidden: boolean;
  redirect?: string;
  component: string;
  alwaysShow?: boolean;
  meta: { title: string; icon: string | null; noCache: boolean };
  children?: MenuRoute[];
}
