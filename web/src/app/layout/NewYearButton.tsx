import { Button } from 'antd';
import { notify } from '../../lib/notify';
import { isNewYearSeason } from '../newYear';
import { t } from '../../lib/i18n';

/** The seasonal greeting in the top bar; renders nothing outside the season. */
export function NewYearButton() {
  if (!isNewYearSeason(new Date())) return null;
  return (
    <Button type="text" onClick={() => notify.success(t('新年快乐！万事如意！'))}>
      🏮 {t('新年快乐')}
    </Button>
  );
}
