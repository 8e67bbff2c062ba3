import type { Services } from '../services.js';
import { issueRefundTool } from './issue-refund.js';
import { getOrderTool, searchOrdersTool } from './orders.js';
import { sendEmailTool } from './send-email.js';
import { setOrderStatusTool } from './set-order-status.js';

/** Every tool of the example agent, bound to its services. */
export function createTools(services: Services) {
  return {
    getOrder: getOrderTool(services),
    searchOrders: searchOrdersTool(services),
    setOrderStatus: setOrderStatusTool(services),
    issueRefund: issueRefundTool(services),
    sendEmail: sendEmailTool(services),
  };
}

export { getOrderTool, issueRefundTool, searchOrdersTool, sendEmailTool, setOrderStatusTool };
