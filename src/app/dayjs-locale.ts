/**
 * Dates read in Chinese (weekdays, months, relative times) on every page that shows one. Imported by
 * the back office's frame rather than the app's root: the login route shows no dates and loads no dayjs.
 */
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';

dayjs.locale('zh-cn');
