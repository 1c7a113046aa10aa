error-title = Hata
not-found-title = Sayfa Bulunamadı
not-found-text = Aradığınız sayfa taşınmış, kaldırılmış ya da hiç var olmamış olabilir.
not-found-home = Ana sayfaya dön
server-error-text = Beklenmeyen bir hata oluştu. Sorun devam ederse bize şu kodla ulaşın: { $id }
bad-request-text = İstek işlenemedi. Lütfen bilgileri kontrol edip tekrar deneyin.
forbidden-title = Bu sayfaya erişim yetkiniz yok
forbidden-text = Bu sayfayı görüntülemek için gerekli yetkiye sahip değilsiniz.
