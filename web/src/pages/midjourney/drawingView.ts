import { MJ_ACTION, MJ_STATUS, MJ_SUBMIT_CODE } from '@switchyard/shared';
import { COMMON_STATUS_TAGS, type TagLook } from '../async-task/view';

/** Drawing actions (spec §4) with the established console's labels and colours. */
export const DRAWING_ACTION_TAGS: Record<string, TagLook> = {
  [MJ_ACTION.IMAGINE]: { label: '绘图', color: 'blue' },
  [MJ_ACTION.UPSCALE]: { label: '放大', color: 'orange' },
  [MJ_ACTION.VARIATION]: { label: '变换', color: 'purple' },
  [MJ_ACTION.HIGH_VARIATION]: { label: '强变换', color: 'purple' },
  [MJ_ACTION.LOW_VARIATION]: { label: '弱变换', color: 'purple' },
  [MJ_ACTION.PAN]: { label: '平移', color: 'cyan' },
  [MJ_ACTION.DESCRIBE]: { label: '图生文', color: 'yellow' },
  [MJ_ACTION.BLEND]: { label: '图混合', color: 'lime' },
  [MJ_ACTION.UPLOAD]: { label: '上传文件', color: 'blue' },
  [MJ_ACTION.SHORTEN]: { label: '缩词', color: 'pink' },
  [MJ_ACTION.REROLL]: { label: '重绘', color: 'geekblue' },
  [MJ_ACTION.INPAINT]: { label: '局部重绘-提交', color: 'magenta' },
  [MJ_ACTION.ZOOM]: { label: '变焦', color: 'cyan' },
  [MJ_ACTION.CUSTOM_ZOOM]: { label: '自定义变焦-提交', color: 'cyan' },
  [MJ_ACTION.MODAL]: { label: '窗口处理', color: 'green' },
  [MJ_ACTION.SWAP_FACE]: { label: '换脸', color: 'green' },
};

/** The proxy's submit result (spec §4). */
export const SUBMIT_CODE_TAGS: Record<number, TagLook> = {
  [MJ_SUBMIT_CODE.SUBMITTED]: { label: '已提交', color: 'green' },
  [MJ_SUBMIT_CODE.WAITING]: { label: '等待中', color: 'lime' },
  [MJ_SUBMIT_CODE.DUPLICATE]: { label: '重复提交', color: 'orange' },
  [MJ_SUBMIT_CODE.NOT_SUBMITTED]: { label: '未提交', color: 'yellow' },
};

/** Drawing states: the common ones plus MODAL, a task waiting for its window's input. */
export const DRAWING_STATUS_TAGS: Record<string, TagLook> = {
  ...COMMON_STATUS_TAGS,
  [MJ_STATUS.MODAL]: { label: '窗口等待', color: 'yellow' },
};
