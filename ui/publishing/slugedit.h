#pragma once

#include <QWidget>

QT_BEGIN_NAMESPACE
class QLabel;
class QLineEdit;
QT_END_NAMESPACE

namespace berth {

class SiteAddresses;
class SiteTable;

// A slug field that checks as you type: the slug rules, whether another site already has it, and
// the address it will give. Used by the publish sheet and the rename dialog.
class SlugEdit final : public QWidget
{
    Q_OBJECT

public:
    SlugEdit(const SiteTable &sites, const SiteAddresses &addresses, QWidget *parent = nullptr);

    QString slug() const;
    void setSlug(const QString &slug);
    // The deployment's own slug, which is not a conflict with itself.
    void setOwnSlug(const QString &slug) { m_ownSlug = slug; }
    bool isValid() const { return m_valid; }
    // A refusal found later (e.g. by the engine), shown like a live one until the next edit.
    void showProblem(const QString &message);
    QLineEdit *lineEdit() const { return m_edit; }

Q_SIGNALS:
    void validityChanged(bool valid);

private:
    void check();

    const SiteTable &m_sites;
    const SiteAddresses &m_addresses;
    QLineEdit *m_edit;
    QLabel *m_message;
    QString m_ownSlug;
    bool m_valid = false;
};

} // namespace berth
